import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

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

export function createQueryClient() {
  return new QueryClient({ defaultOptions: queryConfig });
}

export const queryClient = createQueryClient();
