import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { nominationKeys } from './nomination-keys';
import { pagedList } from './paged';
import type { Nomination } from './types';

/**
 * GET /api/users/{id}/nominations: a scout's nominations, newest first; every status for oneself.
 */
export const userNominationsQueryOptions = (userId: number) =>
  infiniteQueryOptions({
    queryKey: nominationKeys.byUser(userId),
    ...pagedList<Nomination>(`/api/users/${userId}/nominations`),
  });

export function useUserNominations(userId: number) {
  return useInfiniteQuery(userNominationsQueryOptions(userId));
}
