import { useMutation } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

export function deleteAccount(): Promise<void> {
  return unwrap(api.DELETE('/api/settings/account'));
}

/** Deletes the account; `onDeleted` ends the session on this screen (the server already has). */
export function useDeleteAccount({ onDeleted }: { onDeleted: () => void }) {
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      toast({
        title: 'Account Deleted',
        description: 'Your account has been permanently deleted.',
      });
      onDeleted();
    },
    onError: () => {
      toast({ variant: 'destructive', description: 'Failed to delete account' });
    },
  });
}
