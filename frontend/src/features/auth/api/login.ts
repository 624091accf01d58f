import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { browserTimeZone } from '@/lib/time-zone';
import { storeFavoriteSportIfNone } from '@/stores/sport';

import { setSessionUser } from './session-cache';
import type { AuthUser } from './types';

export const loginInputSchema = z.object({
  username: z.string().min(1, 'Username is required').max(150, tooLong('Username', 150)),
  password: z.string().min(1, 'Password is required').max(256, tooLong('Password', 256)),
  /** The authenticator's code or a recovery code, once the server asked for one. */
  code: z.string().max(32, tooLong('Code', 32)).optional(),
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
