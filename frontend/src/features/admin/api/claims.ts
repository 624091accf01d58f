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
export const claimsHeldKey = () => [...adminKeys.all, 'claims', 'approved'] as const;

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

/** The claims that hold a player's controls (approved), the oldest first. */
export function useHeldClaims(enabled = true) {
  return useQuery({
    queryKey: claimsHeldKey(),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/admin/claims', { params: { query: { status: 'approved' } }, signal })),
    enabled,
  });
}

type TransferInput = {
  id: number;
  username: string;
  relationship: 'self' | 'parent_or_guardian';
  reason: string;
};

/** Pass a claimed player's controls to another member, or end the claim. */
export function useChangeHeldClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      input:
        ({ action: 'transfer' } & TransferInput) | { action: 'revoke'; id: number; reason: string },
    ) =>
      input.action === 'transfer'
        ? unwrap(
            api.POST('/api/admin/claims/{claim_id}/transfer', {
              params: { path: { claim_id: input.id } },
              body: {
                username: input.username,
                relationship: input.relationship,
                reason: input.reason || null,
              },
            }),
          )
        : unwrap(
            api.POST('/api/admin/claims/{claim_id}/revoke', {
              params: { path: { claim_id: input.id } },
              body: { reason: input.reason || null },
            }),
          ),
    onSuccess: (_claim, input) =>
      toast({
        title: input.action === 'transfer' ? 'Claim transferred' : 'Claim revoked',
        description:
          input.action === 'transfer'
            ? `@${input.username} now manages the profile.`
            : 'No one manages the profile now; its settings stay.',
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: claimsHeldKey() }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to change the claim. Please try again.'),
      }),
  });
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
  // The held claims: an approved one joins, an ended one leaves; a transfer's new claim is
  // not in the event, so that list is read again.
  if (event.action === 'transferred') {
    void queryClient.invalidateQueries({ queryKey: claimsHeldKey() });
  } else {
    queryClient.setQueryData<AdminClaim[]>(claimsHeldKey(), (held) => {
      if (!held) return held;
      const others = held.filter((claim) => claim.id !== event.item.id);
      if (event.item.status !== 'approved') return others;
      return [...others, event.item].sort(
        (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
      );
    });
  }
  queryClient.setQueryData<AdminClaim[]>(claimsQueueKey(), (queue) => {
    if (!queue) return queue;
    const others = queue.filter((claim) => claim.id !== event.item.id);
    if (event.item.status !== 'pending') return others;
    return [...others, event.item].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
    );
  });
}
