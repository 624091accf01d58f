import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { scoutKeys } from './keys';
import type { ScoutCard } from './types';

export const SCOUTS_PAGE_SIZE = 24;
/** Suggestions fetched: enough to still show a few once the viewer is left out. */
const SUGGESTIONS_FETCHED = 6;

export const scoutDirectoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: scoutKeys.directory(),
    queryFn: ({ pageParam, signal }) =>
      pageParam
        ? api.getPage<ScoutCard>(pageParam, { signal })
        : api.getPage<ScoutCard>('/api/users/scouts', {
            params: { limit: SCOUTS_PAGE_SIZE },
            signal,
          }),
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
      api.get<ScoutCard[]>('/api/users/scouts', { params: { limit: SUGGESTIONS_FETCHED }, signal }),
  });

export function useSuggestedScouts() {
  return useQuery(suggestedScoutsQueryOptions());
}
