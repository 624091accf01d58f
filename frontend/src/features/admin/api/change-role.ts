import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { adminKeys } from './admin-keys';
import type { AssignableRole } from './types';
import { mapUsers, type UserPages } from './users-cache';

export function changeUserRole({ userId, role }: { userId: number; role: AssignableRole }) {
  return unwrap(
    api.PUT('/api/admin/users/{user_id}/role', {
      params: { path: { user_id: userId } },
      body: { role },
    }),
  );
}

/** Makes a user a scout or an admin; the active-scouts count changes with it. */
export function useChangeUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserRole,
    onSuccess: (updated) => {
      queryClient.setQueryData<UserPages>(adminKeys.users(), (data) =>
        mapUsers(data, (user) => (user.id === updated.id ? updated : user)),
      );
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'Failed to change user role'),
      }),
  });
}
