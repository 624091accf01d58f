import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';

import { api, getPage, unwrap } from '@/lib/api-client';

import { scoutKeys } from './keys';

export const SCOUTS_PAGE_SIZE = 24;
/** Suggestions fetched: enough to still show a few once the viewer is left out. */
const SUGGESTIONS_FETCHED = 6;

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

export const suggestedScoutsQueryOptions = () =>
  queryOptions({
    queryKey: scoutKeys.suggested(),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/users/scouts', { params: { query: { limit: SUGGESTIONS_FETCHED } }, signal }),
      ),
  });

export function useSuggestedScouts() {
  return useQuery(suggestedScoutsQueryOptions());
}
