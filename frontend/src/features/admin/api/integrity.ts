import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { adminKeys } from './admin-keys';
import type { IntegrityFlag } from './types';

export const integrityFlagsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.integrityFlags(),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/admin/integrity/flags', { params: { query: { limit: 200 } }, signal })),
  });

export const useIntegrityFlags = () => useQuery(integrityFlagsQueryOptions());

/** A nomination's voters (each opening is logged by the server: voter lists are sensitive). */
export const useNominationVoters = (nominationId: number) =>
  useQuery({
    queryKey: adminKeys.nominationVoters(nominationId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/admin/nominations/{nomination_id}/votes', {
          params: { path: { nomination_id: nominationId }, query: { limit: 200 } },
          signal,
        }),
      ),
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
      unwrap(
        action === 'void'
          ? api.POST('/api/admin/integrity/void', { body: selection })
          : api.POST('/api/admin/integrity/restore', { body: selection }),
      ),
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
