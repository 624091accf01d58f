import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { getPage, type Page } from '@/lib/api-client';

import { adminKeys } from './admin-keys';
import type { PendingItem } from './types';

/** GET /api/admin/nominations/pending, newest first, paged by its Link header. */
export const pendingQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: adminKeys.pending(),
    queryFn: ({ pageParam, signal }): Promise<Page<PendingItem>> =>
      getPage('/api/admin/nominations/pending', {}, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextUrl,
  });

export function usePendingNominations() {
  return useInfiniteQuery(pendingQueryOptions());
}
