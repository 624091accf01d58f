import {
  infiniteQueryOptions,
  useInfiniteQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';

import { getPage, type Page } from '@/lib/api-client';

import { feedKeys, type FeedFilters } from './keys';
import type { Activity } from './types';

export const FEED_PAGE_SIZE = 20;

export function getFeedPage(
  { sport, following }: FeedFilters,
  nextUrl: string | null,
  signal?: AbortSignal,
): Promise<Page<Activity>> {
  return getPage(
    '/api/feed',
    { query: { sport, following: following || undefined, limit: FEED_PAGE_SIZE } },
    nextUrl,
    signal,
  );
}

export const feedQueryOptions = (filters: FeedFilters) =>
  infiniteQueryOptions({
    queryKey: feedKeys.list(filters),
    queryFn: ({ pageParam, signal }) => getFeedPage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextUrl,
  });

export function useFeed(filters: FeedFilters) {
  return useInfiniteQuery(feedQueryOptions(filters));
}

/** Takes the activity about a nomination that left the community out of every loaded feed. */
export function removeNominationActivities(queryClient: QueryClient, nominationId: number) {
  queryClient.setQueriesData<InfiniteData<Page<Activity>, string | null>>(
    { queryKey: feedKeys.lists() },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items.filter((item) => item.relatedNominationId !== nominationId),
        })),
      },
  );
}

/** Puts activities that arrived live at the top of a loaded feed, skipping any already shown. */
export function prependActivities(
  queryClient: QueryClient,
  filters: FeedFilters,
  activities: Activity[],
) {
  queryClient.setQueryData<InfiniteData<Page<Activity>, string | null>>(
    feedKeys.list(filters),
    (data) => {
      if (!data || data.pages.length === 0 || activities.length === 0) return data;
      const shown = new Set(data.pages.flatMap((page) => page.items.map((item) => item.id)));
      const fresh = activities.filter((activity) => !shown.has(activity.id));
      if (fresh.length === 0) return data;
      const [first, ...rest] = data.pages;
      return { ...data, pages: [{ ...first, items: [...fresh, ...first.items] }, ...rest] };
    },
  );
}
