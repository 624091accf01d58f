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

export type AdminCoachVerification = components['schemas']['AdminCoachVerificationOut'];
export type CoachesChanged = components['schemas']['CoachesChangedOut'];
type Listed = 'pending' | 'approved';

export const coachesQueueKey = (status: Listed) =>
  [...adminKeys.all, 'coach-verifications', status] as const;

/** Coach verifications in one status: pending (the longest waiting first) or approved. */
export const coachesQueryOptions = (status: Listed) =>
  queryOptions({
    queryKey: coachesQueueKey(status),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/admin/coach-verifications', { params: { query: { status } }, signal })),
  });

export function useCoachVerifications(status: Listed, enabled = true) {
  return useQuery({ ...coachesQueryOptions(status), enabled });
}

export type CoachDecision = 'approve' | 'reject' | 'withdraw';

/** Approve or reject a request, or withdraw a verified coach's badge; every admin's tab follows. */
export function useDecideCoach() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      action,
      reason,
    }: {
      id: number;
      action: CoachDecision;
      reason?: string;
    }) => {
      const options = {
        params: { path: { verification_id: id } },
        body: { reason: reason || null },
      };
      if (action === 'approve')
        return unwrap(
          api.POST('/api/admin/coach-verifications/{verification_id}/approve', options),
        );
      if (action === 'reject')
        return unwrap(api.POST('/api/admin/coach-verifications/{verification_id}/reject', options));
      return unwrap(api.POST('/api/admin/coach-verifications/{verification_id}/withdraw', options));
    },
    onSettled: () =>
      void queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'coach-verifications'] }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to decide the request. Please try again.'),
      }),
  });
}

function upsert(
  list: AdminCoachVerification[] | undefined,
  item: AdminCoachVerification,
  keep: boolean,
  order: (a: AdminCoachVerification, b: AdminCoachVerification) => number,
) {
  if (!list) return list;
  const others = list.filter((row) => row.id !== item.id);
  return keep ? [...others, item].sort(order) : others;
}

/**
 * Applies `coaches.changed` to the Coaches tab: the pending queue (the longest waiting first)
 * and the verified coaches (the latest decided first). The event carries the request as the
 * lists show it, so the result equals reading them again.
 */
export function applyCoachesChanged(queryClient: QueryClient, event: CoachesChanged) {
  const { item } = event;
  queryClient.setQueryData<AdminCoachVerification[]>(coachesQueueKey('pending'), (queue) =>
    upsert(
      queue,
      item,
      item.status === 'pending',
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
    ),
  );
  queryClient.setQueryData<AdminCoachVerification[]>(coachesQueueKey('approved'), (coaches) =>
    upsert(
      coaches,
      item,
      item.status === 'approved',
      (a, b) => (b.decidedAt ?? '').localeCompare(a.decidedAt ?? '') || b.id - a.id,
    ),
  );
}
