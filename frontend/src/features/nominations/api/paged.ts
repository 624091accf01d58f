import type { InfiniteData } from '@tanstack/react-query';

import { getPage, type Page, type PagedPath, type PageParams } from '@/lib/api-client';

/** A cached paged list: the pages read so far, each with the address of the next one. */
export type PagedData<T> = InfiniteData<Page<T>>;

/**
 * The pieces of `infiniteQueryOptions` for a list paged by its Link header: the first page from
 * `path` with `params`, each following page with the cursor of the previous page's `rel="next"`
 * address (see `getPage`).
 */
export function pagedList<P extends PagedPath>(path: P, params: PageParams<P>) {
  return {
    queryFn: ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) =>
      getPage(path, params, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage: { nextUrl: string | null }) => lastPage.nextUrl,
  };
}

/** Every item of the pages read so far, without the duplicates a shifting list can produce. */
export function flattenPages<T extends { id: number }>(data: PagedData<T> | undefined): T[] {
  if (!data) return [];
  const seen = new Set<number>();
  const items: T[] = [];
  for (const page of data.pages) {
    for (const item of page.items) {
      if (!seen.has(item.id)) {
        seen.add(item.id);
        items.push(item);
      }
    }
  }
  return items;
}
