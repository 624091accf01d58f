import type { PagedData } from '@/features/nominations/api/paged';
import type { Nomination } from '@/features/nominations/api/types';
import type { Page } from '@/lib/api-client';

/** Cached paged-list data holding these pages of nominations (see nomination-factory.ts). */
export function paged(...pages: Nomination[][]): PagedData<Nomination> {
  return {
    pages: pages.map((items, index): Page<Nomination> => ({
      items,
      nextUrl: index < pages.length - 1 ? `/api/next?page=${index + 1}` : null,
    })),
    pageParams: pages.map((_, index) => (index === 0 ? null : `/api/next?page=${index}`)),
  };
}
