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

export type AdminClaim = components['schemas']['AdminClaimOut'];
export type ClaimsChanged = components['schemas']['ClaimsChangedOut'];

export const claimsQueueKey = () => [...adminKeys.all, 'claims', 'pending'] as const;

/** The admins' queue of pending claims, the longest waiting first. */
export const claimsQueueQueryOptions = () =>
  queryOptions({
    queryKey: claimsQueueKey(),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/admin/claims', { params: { query: { status: 'pending' } }, signal })),
  });

export function useClaimsQueue(enabled = true) {
  return useQuery({ ...claimsQueueQueryOptions(), enabled });
}

/** Approve or reject a claim; the queue follows (and every other admin's, live). */
export function useDecideClaim() {
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
            api.POST('/api/admin/claims/{claim_id}/approve', {
              params: { path: { claim_id: id } },
              body: { reason: reason || null },
            }),
          )
        : unwrap(
            api.POST('/api/admin/claims/{claim_id}/reject', {
              params: { path: { claim_id: id } },
              body: { reason: reason || null },
            }),
          ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: claimsQueueKey() }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to decide the claim. Please try again.'),
      }),
  });
}

/**
 * Applies `claims.changed` to the pending queue: a new claim joins it, a decided one leaves it.
 * The result equals reading the queue again (the event carries the claim as the queue shows it).
 */
export function applyClaimsChanged(queryClient: QueryClient, event: ClaimsChanged) {
  queryClient.setQueryData<AdminClaim[]>(claimsQueueKey(), (queue) => {
    if (!queue) return queue;
    const others = queue.filter((claim) => claim.id !== event.item.id);
    if (event.item.status !== 'pending') return others;
    return [...others, event.item].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
    );
  });
}
