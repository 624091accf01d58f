import { QueryCache, QueryClient, type DefaultOptions } from '@tanstack/react-query';

import { withCurrentVoteCounts } from './live/vote-versions';

/**
 * Reads never go stale on their own: live events and mutations update or invalidate exactly the
 * keys they change. Nothing refetches on focus or on an interval, and nothing is retried.
 */
export const queryConfig = {
  queries: {
    staleTime: Infinity,
    gcTime: 5 * 60 * 1000,
    refetchOnWindowFocus: false,
    refetchInterval: false,
    retry: false,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

/**
 * Every read that lands is checked against the newest vote counts seen (live or answered): a
 * nomination read older than a count already shown keeps the newer count
 * (`withCurrentVoteCounts`).
 */
export function createQueryClient() {
  const queryCache = new QueryCache({
    onSuccess: (data, query) => {
      const current = withCurrentVoteCounts(queryClient, data);
      if (current !== data) queryClient.setQueryData(query.queryKey, current);
    },
  });
  const queryClient = new QueryClient({ defaultOptions: queryConfig, queryCache });
  return queryClient;
}

export const queryClient = createQueryClient();
