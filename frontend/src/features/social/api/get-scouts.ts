import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';

import { api, getPage, unwrap } from '@/lib/api-client';

import { scoutKeys } from './keys';

export const SCOUTS_PAGE_SIZE = 24;

export const scoutDirectoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: scoutKeys.directory(),
    queryFn: ({ pageParam, signal }) =>
      getPage('/api/users/scouts', { query: { limit: SCOUTS_PAGE_SIZE } }, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextUrl,
  });

export function useScoutDirectory() {
  return useInfiniteQuery(scoutDirectoryQueryOptions());
}

/** GET /api/users/suggested: scouts the viewer does not follow yet, sharing their sport first
 * (never the viewer, flagged or suspended accounts). */
export const suggestedScoutsQueryOptions = () =>
  queryOptions({
    queryKey: scoutKeys.suggested(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/users/suggested', { signal })),
  });

export function useSuggestedScouts() {
  return useQuery(suggestedScoutsQueryOptions());
}
