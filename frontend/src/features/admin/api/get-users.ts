import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { getPage } from '@/lib/api-client';

import { adminKeys } from './admin-keys';

/** The largest page the server gives: most installations list every user in one read. */
export const USERS_PAGE_SIZE = 200;

/** GET /api/admin/users, newest first, paged by its Link header. */
export const usersQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: adminKeys.users(),
    queryFn: ({ pageParam, signal }) =>
      getPage('/api/admin/users', { query: { limit: USERS_PAGE_SIZE } }, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextUrl,
  });

export function useAdminUsers() {
  return useInfiniteQuery(usersQueryOptions());
}
