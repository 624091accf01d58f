import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { storeFavoriteSportIfNone } from '@/stores/sport';

import { setSessionUser } from './session-cache';
import type { AuthUser } from './types';

export const loginInputSchema = z.object({
  username: z.string().min(1, 'Username is required').max(150, tooLong('Username', 150)),
  password: z.string().min(1, 'Password is required').max(256, tooLong('Password', 256)),
});

export type LoginInput = z.infer<typeof loginInputSchema>;

export function login(input: LoginInput): Promise<AuthUser> {
  return unwrap(api.POST('/api/auth/login', { body: input }));
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
