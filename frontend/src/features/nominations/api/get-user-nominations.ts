import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { nominationKeys } from './nomination-keys';
import { pagedList } from './paged';

/**
 * GET /api/users/{id}/nominations: a scout's nominations, newest first; every status for oneself.
 */
export const userNominationsQueryOptions = (userId: number) =>
  infiniteQueryOptions({
    queryKey: nominationKeys.byUser(userId),
    ...pagedList('/api/users/{user_id}/nominations', { path: { user_id: userId } }),
  });

export function useUserNominations(userId: number) {
  return useInfiniteQuery(userNominationsQueryOptions(userId));
}
