import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { scoutKeys } from './keys';

/** The scout page lists this many of the scout's newest nominations. */
export const RECENT_NOMINATIONS_SHOWN = 5;

export const scoutQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: scoutKeys.detail(userId),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/users/{user_id}', { params: { path: { user_id: userId } }, signal })),
  });

export function useScout(userId: number) {
  return useQuery(scoutQueryOptions(userId));
}

export const scoutNominationsQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: scoutKeys.nominations(userId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/users/{user_id}/nominations', {
          params: { path: { user_id: userId }, query: { limit: RECENT_NOMINATIONS_SHOWN } },
          signal,
        }),
      ),
  });

export function useScoutNominations(userId: number, { enabled }: { enabled: boolean }) {
  return useQuery({ ...scoutNominationsQueryOptions(userId), enabled });
}
