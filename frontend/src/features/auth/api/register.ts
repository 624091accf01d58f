import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { LIMITS } from '@/lib/api/limits';
import { api, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { browserTimeZone } from '@/lib/time-zone';
import { SPORT_VALUES } from '@/stores/sport';

import { setSessionUser } from './session-cache';

const { username, name, email, password, referralCode } = LIMITS.RegisterIn;

export const YEAR_OF_BIRTH_REQUIRED = 'Year of birth is required';
/** The server's answer to a year of birth under 13 (nothing is stored). */
export const UNDER_MINIMUM_AGE = 'under_minimum_age';

export const registerInputSchema = z.object({
  username: z
    .string()
    .min(username.minLength, `Username must be at least ${username.minLength} characters`)
    .max(username.maxLength, tooLong('Username', username.maxLength)),
  name: z
    .string()
    .min(name.minLength, 'Name is required')
    .max(name.maxLength, tooLong('Name', name.maxLength)),
  email: z
    .string()
    .max(email.maxLength, tooLong('Email', email.maxLength))
    .pipe(z.email('Invalid email address')),
  password: z
    .string()
    .min(password.minLength, `Password must be at least ${password.minLength} characters`)
    .max(password.maxLength, tooLong('Password', password.maxLength)),
  favoriteSport: z.enum(SPORT_VALUES),
  /** The select's value: '' until the member picks a year. */
  birthYear: z.string().regex(/^[0-9]{4}$/, YEAR_OF_BIRTH_REQUIRED),
  /** The code of the member whose link (/register?ref=CODE) brought the visitor; optional. */
  referralCode: z
    .string()
    .max(referralCode.maxLength, tooLong('Referral code', referralCode.maxLength))
    .optional(),
});

export type RegisterInput = z.infer<typeof registerInputSchema>;

export function register({
  username,
  password,
  name,
  email,
  favoriteSport,
  birthYear,
  referralCode,
}: RegisterInput) {
  return unwrap(
    api.POST('/api/auth/register', {
      body: {
        username,
        password,
        name,
        email,
        favoriteSport,
        birthYear: Number(birthYear),
        timeZone: browserTimeZone(),
        referralCode: referralCode?.trim() ?? '',
      },
    }),
  );
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}
