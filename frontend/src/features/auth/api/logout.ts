import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { setSessionUser } from './session-cache';

export function logout(): Promise<void> {
  return unwrap(api.POST('/api/auth/logout'));
}

/** Signs out; `onSuccess` runs before the session is cleared, so it can navigate away first. */
export function useLogout({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      onSuccess?.();
      setSessionUser(queryClient, null);
    },
    onError: () => {
      toast({ variant: 'destructive', description: 'Failed to log out. Please try again.' });
    },
  });
}
