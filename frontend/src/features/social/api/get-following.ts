import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Sport } from '@/stores/sport';

import { followKeys } from './keys';
import type { Following } from './types';

/** The most follows one page can hold: the network count reads "200+" beyond it. */
export const FOLLOWING_LIMIT = 200;

export const followingQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: followKeys.following(sport),
    queryFn: ({ signal }) =>
      api.getPage<Following>('/api/user/following', {
        params: { sport, limit: FOLLOWING_LIMIT },
        signal,
      }),
  });

export function useFollowing(sport: Sport) {
  return useQuery(followingQueryOptions(sport));
}
