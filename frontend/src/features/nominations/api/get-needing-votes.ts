import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import type { Sport } from '@/stores/sport';

import { nominationKeys } from './nomination-keys';
import { pagedList } from './paged';

/** GET /api/nominations/needing-votes?sport: community nominations with fewer than 5 votes. */
export const needingVotesQueryOptions = (sport: Sport) =>
  infiniteQueryOptions({
    queryKey: nominationKeys.needingVotes(sport),
    ...pagedList('/api/nominations/needing-votes', { query: { sport } }),
  });

export function useNeedingVotes(sport: Sport) {
  return useInfiniteQuery(needingVotesQueryOptions(sport));
}
