import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { LIMITS } from '@/lib/api/limits';
import { api, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { browserTimeZone } from '@/lib/time-zone';
import { storeFavoriteSportIfNone } from '@/stores/sport';

import { setSessionUser } from './session-cache';
import type { AuthUser } from './types';

const { username, password, code } = LIMITS.LoginIn;

export const loginInputSchema = z.object({
  username: z
    .string()
    .min(username.minLength, 'Username is required')
    .max(username.maxLength, tooLong('Username', username.maxLength)),
  password: z
    .string()
    .min(password.minLength, 'Password is required')
    .max(password.maxLength, tooLong('Password', password.maxLength)),
  /** The authenticator's code or a recovery code, once the server asked for one. */
  code: z.string().max(code.maxLength, tooLong('Code', code.maxLength)).optional(),
});

/** The server's answer to a password of an account with two-factor sign-in and no code yet. */
export const TWO_FACTOR_REQUIRED = 'two_factor_required';

export type LoginInput = z.infer<typeof loginInputSchema>;

export function login({ code, ...input }: LoginInput): Promise<AuthUser> {
  return unwrap(
    api.POST('/api/auth/login', {
      body: { ...input, code: code ?? '', timeZone: browserTimeZone() },
    }),
  );
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      storeFavoriteSportIfNone(user.favoriteSport);
      setSessionUser(queryClient, user);
    },
  });
}
