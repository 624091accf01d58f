import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { adminKeys } from './admin-keys';
import type { AuditVote, IntegrityFlag, VoteSelectionResult } from './types';

export const integrityFlagsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.integrityFlags(),
    queryFn: ({ signal }) =>
      api.get<IntegrityFlag[]>('/api/admin/integrity/flags', { params: { limit: 200 }, signal }),
  });

export const useIntegrityFlags = () => useQuery(integrityFlagsQueryOptions());

/** A nomination's voters (each opening is logged by the server: voter lists are sensitive). */
export const useNominationVoters = (nominationId: number) =>
  useQuery({
    queryKey: adminKeys.nominationVoters(nominationId),
    queryFn: ({ signal }) =>
      api.get<AuditVote[]>(`/api/admin/nominations/${nominationId}/votes`, {
        params: { limit: 200 },
        signal,
      }),
    staleTime: Infinity,
  });

/** A pushed flag (new, grown, voided or reopened) replaces its copy; newest change first. */
export function applyIntegrityFlag(queryClient: QueryClient, flag: IntegrityFlag) {
  queryClient.setQueryData<IntegrityFlag[]>(adminKeys.integrityFlags(), (flags) => {
    if (!flags) return flags;
    return [flag, ...flags.filter((item) => item.id !== flag.id)].sort(
      (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id,
    );
  });
}

type Selection = { flagId: number; reason: string };

/** Voids (or restores) a flag's votes; the counts on every screen follow through the live layer. */
export function useVoteSelection(action: 'void' | 'restore') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (selection: Selection) =>
      api.post<VoteSelectionResult>(`/api/admin/integrity/${action}`, selection),
    onSuccess: (result) => {
      toast({
        title: action === 'void' ? 'Votes voided' : 'Votes restored',
        description: `${result.votes} vote${result.votes === 1 ? '' : 's'} ${
          action === 'void' ? 'no longer count' : 'count again'
        }.`,
      });
      void queryClient.invalidateQueries({ queryKey: adminKeys.integrityFlags() });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'Failed to change the votes'),
      }),
  });
}
