import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Sport } from '@/stores/sport';

import { RECENT_NOMINATIONS } from './constants';
import { nominationKeys } from './nomination-keys';

/** GET /api/nominations/recent?sport: the newest community nominations of the sport. */
export const recentNominationsQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: nominationKeys.recent(sport),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/nominations/recent', {
          params: { query: { sport, limit: RECENT_NOMINATIONS } },
          signal,
        }),
      ),
  });

export function useRecentNominations(sport: Sport) {
  return useQuery(recentNominationsQueryOptions(sport));
}
