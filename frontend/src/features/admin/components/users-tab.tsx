import { ShieldCheck, ShieldMinus, Trash2 } from 'lucide-react';
import { useState } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CoachBadge } from '@/components/coach-badge';

import { useChangeUserRole } from '../api/change-role';
import { useDeleteUser } from '../api/delete-user';
import { useAdminUsers } from '../api/get-users';
import type { AdminUser, AssignableRole } from '../api/types';
import { useErrorToast } from '../hooks/use-error-toast';

import { ListEmpty, ListError, ListSkeleton, LoadMoreButton } from './list-states';

type PendingAction =
  { kind: 'role'; user: AdminUser; role: AssignableRole } | { kind: 'delete'; user: AdminUser };

/** The role a promote-or-demote button gives: admins become scouts, everyone else admins. */
function otherRole(user: AdminUser): AssignableRole {
  return user.role === 'admin' ? 'scout' : 'admin';
}

const ROLE_LABEL: Record<AssignableRole, string> = { admin: 'Make Admin', scout: 'Make Scout' };

/**
 * Every user with their role and points. An admin can promote, demote or delete anyone else,
 * each after a confirmation; their own row has no actions.
 */
export function UsersTab({ viewerId }: { viewerId: number }) {
  const query = useAdminUsers();
  const users = query.data?.pages.flatMap((page) => page.items) ?? [];
  const changeRole = useChangeUserRole();
  const deleteUser = useDeleteUser();
  const [action, setAction] = useState<PendingAction | null>(null);
  useErrorToast(query.error, 'Failed to fetch users');
  const close = () => setAction(null);

  if (query.isPending) return <ListSkeleton />;
  if (query.error) {
    return (
      <ListError
        title="Users could not be loaded"
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  if (users.length === 0) return <ListEmpty title="No users" />;

  return (
    <>
      <Card className="overflow-x-auto">
        <table className="w-full min-w-[44rem] text-left text-sm">
          <caption className="sr-only">Users</caption>
          <thead className="border-b border-border bg-muted/50 text-xs text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Name
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Email
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Role
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Points
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {users.map((user) => {
              const self = user.id === viewerId;
              const role = otherRole(user);
              return (
                <tr key={user.id} aria-label={user.name}>
                  <td className="px-4 py-3">
                    <span className="flex items-center gap-2 font-semibold">
                      {user.name}
                      {self && <Badge variant="primary">You</Badge>}
                      <CoachBadge userId={user.id} />
                    </span>
                    <span className="text-muted-foreground">@{user.username}</span>
                  </td>
                  <td className="px-4 py-3 text-muted-foreground">{user.email}</td>
                  <td className="px-4 py-3">
                    <Badge
                      variant={user.role === 'admin' ? 'purple' : 'neutral'}
                      className="capitalize"
                    >
                      {user.role}
                    </Badge>
                  </td>
                  <td className="px-4 py-3 text-right font-semibold tabular-nums">{user.points}</td>
                  <td className="px-4 py-3">
                    {!self && (
                      <div className="flex justify-end gap-2">
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => setAction({ kind: 'role', user, role })}
                        >
                          {role === 'admin' ? (
                            <ShieldCheck aria-hidden="true" />
                          ) : (
                            <ShieldMinus aria-hidden="true" />
                          )}
                          {ROLE_LABEL[role]}
                        </Button>
                        <Button
                          size="sm"
                          variant="destructive"
                          onClick={() => setAction({ kind: 'delete', user })}
                        >
                          <Trash2 aria-hidden="true" />
                          Delete
                        </Button>
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Card>
      {query.hasNextPage && (
        <LoadMoreButton
          label="Load more users"
          onClick={() => void query.fetchNextPage()}
          loading={query.isFetchingNextPage}
        />
      )}

      <ActionDialog
        alert
        open={action?.kind === 'role'}
        onOpenChange={(open) => !open && close()}
        title="Change User Role"
        description={
          action?.kind === 'role'
            ? `${action.user.name} (@${action.user.username}) will become ${
                action.role === 'admin'
                  ? 'an admin, with access to the admin dashboard'
                  : 'a scout, without admin rights'
              }. Are you sure?`
            : ''
        }
        actionLabel={action?.kind === 'role' ? ROLE_LABEL[action.role] : ''}
        pending={changeRole.isPending}
        onAction={() =>
          action?.kind === 'role' &&
          changeRole.mutate({ userId: action.user.id, role: action.role }, { onSettled: close })
        }
      />
      <ActionDialog
        alert
        open={action?.kind === 'delete'}
        onOpenChange={(open) => !open && close()}
        title="Delete User"
        description={
          action?.kind === 'delete'
            ? `This action cannot be undone. This will permanently delete ${action.user.name}'s account (@${action.user.username}) and all of their nominations, votes, and other data.`
            : ''
        }
        actionLabel="Delete User"
        actionVariant="destructive"
        pending={deleteUser.isPending}
        onAction={() =>
          action?.kind === 'delete' && deleteUser.mutate(action.user.id, { onSettled: close })
        }
      />
    </>
  );
}
