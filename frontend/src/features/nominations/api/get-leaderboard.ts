import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Sport } from '@/stores/sport';

import { nominationKeys } from './nomination-keys';
import type { Nomination, ScoutRank } from './types';

/** GET /api/leaderboard/players?sport: the top 10 nominations by votes. */
export const topPlayersQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: nominationKeys.leaderboardPlayers(sport),
    queryFn: ({ signal }) =>
      api.get<Nomination[]>('/api/leaderboard/players', { params: { sport }, signal }),
  });

/** GET /api/leaderboard?sport: the top 10 scouts by nominations. */
export const topScoutsQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: nominationKeys.leaderboardScouts(sport),
    queryFn: ({ signal }) =>
      api.get<ScoutRank[]>('/api/leaderboard', { params: { sport }, signal }),
  });

export function useTopPlayers(sport: Sport) {
  return useQuery(topPlayersQueryOptions(sport));
}

export function useTopScouts(sport: Sport) {
  return useQuery(topScoutsQueryOptions(sport));
}

/** Most votes first, then the older nomination, as the server ranks them. */
export function byVotes(a: Nomination, b: Nomination): number {
  return b.voteCount - a.voteCount || a.createdAt.localeCompare(b.createdAt) || a.id - b.id;
}
