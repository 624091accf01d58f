import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { authKeys } from './auth-keys';

/** PUT /api/settings/birth-year: an older account's year of birth, asked once. */
export function useGiveBirthYear() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (birthYear: number) =>
      unwrap(api.PUT('/api/settings/birth-year', { body: { birthYear } })),
    onSuccess: (user) => queryClient.setQueryData(authKeys.me(), user),
  });
}

/** POST /api/auth/closed-account/delete: deletes an account closed for being under 13. */
export function useDeleteClosedAccount() {
  return useMutation({
    mutationFn: (deletionToken: string) =>
      unwrap(api.POST('/api/auth/closed-account/delete', { body: { deletionToken } })),
  });
}
