import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, ApiError, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { applyLostDecision, applyOwnDecision } from './admin-cache';
import type { AdminNomination, Decision } from './types';

export function approveNomination(id: number) {
  return unwrap(
    api.POST('/api/admin/nominations/{nomination_id}/approve', {
      params: { path: { nomination_id: id } },
    }),
  );
}

/** The reason is optional: a blank one is left out of the request. */
export function rejectNomination({ id, reason }: { id: number; reason?: string }) {
  const trimmed = reason?.trim();
  return unwrap(
    api.POST('/api/admin/nominations/{nomination_id}/reject', {
      params: { path: { nomination_id: id } },
      body: trimmed ? { reason: trimmed } : undefined,
    }),
  );
}

const FAILURE: Record<Decision, string> = {
  approved: 'Failed to approve nomination',
  rejected: 'Failed to reject nomination',
};

/** Another admin decided first: the server says who ("Already approved by Ada"). */
export function isAlreadyDecided(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && error.code === 'already_decided';
}

function useDecision<Variables>(
  decision: Decision,
  mutationFn: (variables: Variables) => Promise<AdminNomination>,
  idOf: (variables: Variables) => number,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_nomination, variables) => applyOwnDecision(queryClient, idOf(variables), decision),
    onError: (error, variables) => {
      if (isAlreadyDecided(error)) applyLostDecision(queryClient, idOf(variables));
      toast({ variant: 'destructive', description: errorMessage(error, FAILURE[decision]) });
    },
  });
}

export function useApproveNomination() {
  return useDecision('approved', approveNomination, (id: number) => id);
}

export function useRejectNomination() {
  return useDecision('rejected', rejectNomination, ({ id }: { id: number }) => id);
}
