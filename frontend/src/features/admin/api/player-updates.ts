import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import { toast } from '@/stores/toast';

import { adminKeys } from './admin-keys';

export type AdminPlayerUpdate = components['schemas']['AdminPlayerUpdateOut'];
export type PlayerUpdateQueueChanged = components['schemas']['PlayerUpdateQueueOut'];

export const updatesQueueKey = () => [...adminKeys.all, 'player-updates', 'pending'] as const;

/** The admins' queue of player updates waiting with media, the longest waiting first. */
export const updatesQueueQueryOptions = () =>
  queryOptions({
    queryKey: updatesQueueKey(),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/admin/player-updates', { params: { query: { status: 'pending' } }, signal }),
      ),
  });

export function useUpdatesQueue(enabled = true) {
  return useQuery({ ...updatesQueueQueryOptions(), enabled });
}

/** Publish or refuse an update; the queue follows (and every other admin's, live). */
export function useDecideUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      action,
      reason,
    }: {
      id: number;
      action: 'approve' | 'reject';
      reason?: string;
    }) =>
      action === 'approve'
        ? unwrap(
            api.POST('/api/admin/player-updates/{update_id}/approve', {
              params: { path: { update_id: id } },
              body: { reason: reason || null },
            }),
          )
        : unwrap(
            api.POST('/api/admin/player-updates/{update_id}/reject', {
              params: { path: { update_id: id } },
              body: { reason: reason || null },
            }),
          ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: updatesQueueKey() }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to decide the update. Please try again.'),
      }),
  });
}

/**
 * Applies `player_update_queue.changed` to the pending queue: a new update joins it, a decided
 * or deleted one leaves it. The result equals reading the queue again.
 */
export function applyUpdateQueueChanged(queryClient: QueryClient, event: PlayerUpdateQueueChanged) {
  queryClient.setQueryData<AdminPlayerUpdate[]>(updatesQueueKey(), (queue) => {
    if (!queue) return queue;
    const others = queue.filter((update) => update.id !== event.item.id);
    if (event.action === 'deleted' || event.item.status !== 'pending') return others;
    return [...others, event.item].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
    );
  });
}
