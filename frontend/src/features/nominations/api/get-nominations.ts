import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { nominationKeys, type NominationListFilters } from './nomination-keys';
import { pagedList } from './paged';

/**
 * GET /api/nominations?sport&q: the community's nominations, newest first, paged. `q` is searched
 * by the server (player name, position, nationality, club, nominator name).
 */
export const nominationsQueryOptions = ({ sport, q }: NominationListFilters) =>
  infiniteQueryOptions({
    queryKey: nominationKeys.list({ sport, q }),
    ...pagedList('/api/nominations', { query: { sport, q: q.trim() || undefined } }),
  });

export function useNominations(filters: NominationListFilters) {
  return useInfiniteQuery({
    ...nominationsQueryOptions(filters),
    // A new search keeps the previous results on screen (dimmed) until its own arrive; another
    // sport shows skeletons instead, since the previous cards would be of the wrong sport.
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as NominationListFilters | undefined)?.sport === filters.sport
        ? previous
        : undefined,
  });
}
