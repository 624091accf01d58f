import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Sport } from '@/stores/sport';

import { nominationKeys } from './nomination-keys';

/** GET /api/stats?sport: nominations, votes and nominations needing votes in the sport. */
export const statsQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: nominationKeys.stats(sport),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/stats', { params: { query: { sport } }, signal })),
  });

export function useStats(sport: Sport) {
  return useQuery(statsQueryOptions(sport));
}
