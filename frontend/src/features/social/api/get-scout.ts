import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { scoutKeys } from './keys';
import type { Scout, ScoutNomination } from './types';

/** The scout page lists this many of the scout's newest nominations. */
export const RECENT_NOMINATIONS_SHOWN = 5;

export const scoutQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: scoutKeys.detail(userId),
    queryFn: ({ signal }) => api.get<Scout>(`/api/users/${userId}`, { signal }),
  });

export function useScout(userId: number) {
  return useQuery(scoutQueryOptions(userId));
}

export const scoutNominationsQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: scoutKeys.nominations(userId),
    queryFn: ({ signal }) =>
      api.get<ScoutNomination[]>(`/api/users/${userId}/nominations`, {
        params: { limit: RECENT_NOMINATIONS_SHOWN },
        signal,
      }),
  });

export function useScoutNominations(userId: number, { enabled }: { enabled: boolean }) {
  return useQuery({ ...scoutNominationsQueryOptions(userId), enabled });
}
