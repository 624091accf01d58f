import { queryOptions, useQuery } from '@tanstack/react-query';

import { getPage } from '@/lib/api-client';
import type { Sport } from '@/stores/sport';

import { followKeys } from './keys';

/** The most follows one page can hold: the network count reads "200+" beyond it. */
export const FOLLOWING_LIMIT = 200;

export const followingQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: followKeys.following(sport),
    queryFn: ({ signal }) =>
      getPage('/api/user/following', { query: { sport, limit: FOLLOWING_LIMIT } }, null, signal),
  });

export function useFollowing(sport: Sport) {
  return useQuery(followingQueryOptions(sport));
}
