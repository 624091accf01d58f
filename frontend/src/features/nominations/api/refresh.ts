import type { QueryClient } from '@tanstack/react-query';

import { followKeys, queryRoots } from '@/lib/query-keys';

import { nominationKeys } from './nomination-keys';

/**
 * After a vote or a follow change: follow statuses and the following list, the feed, and every
 * nomination read (lists, recent, needing votes, details, leaderboards, stats).
 */
export function refreshAfterVoteOrFollow(queryClient: QueryClient) {
  for (const queryKey of [followKeys.all, queryRoots.feed, nominationKeys.all]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/** After nominating or editing a player: the nomination reads (recent, lists, stats...). */
export function refreshNominations(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: nominationKeys.all });
}
