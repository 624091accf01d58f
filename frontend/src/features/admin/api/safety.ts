import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage, getPage, unwrap, type Page } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { adminKeys } from './admin-keys';
import type {
  AdminNomination,
  ModlogEntry,
  ModlogFilters,
  ReportAction,
  TakedownDecision,
} from './types';

const LOG_PAGE_SIZE = 50;

export const reportsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.reports(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/admin/reports', { signal })),
  });

export const takedownsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.takedowns(),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/admin/takedown-requests', { params: { query: { limit: 200 } }, signal }),
      ),
  });

/** Takedown requests refused over the last days, counted per player, reason and day. */
export const takedownRefusalsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.takedownRefusals(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/admin/takedown-refusals', { signal })),
  });

/** Taken-down players' nominations, for the restore button. */
export const hiddenQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.hidden(),
    queryFn: ({ signal }): Promise<AdminNomination[]> =>
      unwrap(
        api.GET('/api/nominations', {
          params: { query: { status: 'hidden', limit: 200 } },
          signal,
        }),
      ),
  });

export const modlogQueryOptions = (filters: ModlogFilters) =>
  infiniteQueryOptions({
    queryKey: adminKeys.modlog(filters),
    queryFn: ({ pageParam, signal }) =>
      getPage(
        '/api/admin/modlog',
        { query: { ...filters, limit: LOG_PAGE_SIZE } },
        pageParam,
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextUrl,
  });

export const useReportGroups = () => useQuery(reportsQueryOptions());
export const useTakedowns = () => useQuery(takedownsQueryOptions());
export const useHiddenNominations = () => useQuery(hiddenQueryOptions());
export const useTakedownRefusals = () => useQuery(takedownRefusalsQueryOptions());
export const useModlog = (filters: ModlogFilters) => useInfiniteQuery(modlogQueryOptions(filters));

/** What the Reports tab shows: read again when something changes it. */
export function refreshReports(queryClient: QueryClient) {
  for (const queryKey of [adminKeys.reports(), adminKeys.takedowns(), adminKeys.hidden()]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

function matches(entry: ModlogEntry, filters: ModlogFilters) {
  return (
    (filters.actor === undefined || entry.actorId === filters.actor) &&
    (filters.action === undefined || entry.action === filters.action) &&
    (filters.targetType === undefined || entry.targetType === filters.targetType) &&
    (filters.targetId === undefined || entry.targetId === filters.targetId) &&
    filters.until === undefined
  );
}

/** `modlog.created`: the new row goes on top of every loaded log it belongs to. */
export function prependModlogEntry(queryClient: QueryClient, entry: ModlogEntry) {
  for (const [queryKey, data] of queryClient.getQueriesData<InfiniteData<Page<ModlogEntry>>>({
    queryKey: adminKeys.modlogs(),
  })) {
    const filters = (queryKey[2] ?? {}) as ModlogFilters;
    if (!data || data.pages.length === 0 || !matches(entry, filters)) continue;
    if (data.pages.some((page) => page.items.some((item) => item.id === entry.id))) continue;
    const [first, ...rest] = data.pages;
    queryClient.setQueryData(queryKey, {
      ...data,
      pages: [{ ...first, items: [entry, ...first.items] }, ...rest],
    });
  }
}

function useAdminWrite<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  success: string,
  failure: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => toast({ title: success }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, failure) }),
    onSettled: () => {
      refreshReports(queryClient);
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

export type ResolveVariables = {
  target: { nominationId: number } | { userId: number } | { endorsementId: number };
  action: ReportAction;
  reason: string;
};

export function useResolveReports() {
  return useAdminWrite(
    ({ target, action, reason }: ResolveVariables) =>
      unwrap(api.POST('/api/admin/reports/resolve', { body: { ...target, action, reason } })),
    'Reports resolved',
    'Failed to resolve the reports',
  );
}

export function useDecideTakedown() {
  return useAdminWrite(
    ({ id, decision, reason }: { id: number; decision: TakedownDecision; reason: string }) =>
      unwrap(
        api.POST('/api/admin/takedown-requests/{request_id}/decide', {
          params: { path: { request_id: id } },
          body: { decision, reason },
        }),
      ),
    'Takedown request decided',
    'Failed to decide the takedown request',
  );
}

export function useRestorePlayer() {
  return useAdminWrite(
    ({ playerId, reason }: { playerId: number; reason: string }) =>
      unwrap(
        api.POST('/api/admin/players/{player_id}/restore', {
          params: { path: { player_id: playerId } },
          body: { reason },
        }),
      ),
    'Player restored',
    'Failed to restore the player',
  );
}
