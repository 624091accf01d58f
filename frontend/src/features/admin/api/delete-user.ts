import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { adminKeys } from './admin-keys';
import { mapUsers, type UserPages } from './users-cache';

export function deleteUser(userId: number): Promise<void> {
  return unwrap(
    api.DELETE('/api/admin/users/{user_id}', { params: { path: { user_id: userId } } }),
  );
}

/**
 * Deletes a user with their nominations, votes and everything else of theirs: the user leaves
 * the list and every admin view is read again.
 */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_, userId) => {
      queryClient.setQueryData<UserPages>(adminKeys.users(), (data) =>
        mapUsers(data, (user) => (user.id === userId ? null : user)),
      );
      void queryClient.invalidateQueries({
        queryKey: adminKeys.all,
        predicate: (query) => query.queryKey[1] !== adminKeys.users()[1],
      });
    },
    onError: (error) =>
      toast({ variant: 'destructive', description: errorMessage(error, 'Failed to delete user') }),
  });
}
