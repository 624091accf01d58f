import type { QueryClient } from '@tanstack/react-query';

import { nominationKeys } from './nomination-keys';

/**
 * Follow statuses. The social feature keeps scouts' statuses and the following lists under the
 * same ['follow'] prefix, and the feed under ['feed']; features do not import each other, so
 * those are refreshed here by prefix.
 */
export const followKeys = {
  all: ['follow'] as const,
  playerStatus: (playerId: number) => [...followKeys.all, 'status', { playerId }] as const,
};

const FEED_KEY = ['feed'] as const;

/**
 * After a vote or a follow change: follow statuses and the following list, the feed, and every
 * nomination read (lists, recent, needing votes, details, leaderboards, stats).
 */
export function refreshAfterVoteOrFollow(queryClient: QueryClient) {
  for (const queryKey of [followKeys.all, FEED_KEY, nominationKeys.all]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/** After nominating or editing a player: the nomination reads (recent, lists, stats...). */
export function refreshNominations(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: nominationKeys.all });
}
