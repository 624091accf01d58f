import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { BoardKind } from '@/lib/boards';
import type { Sport } from '@/stores/sport';

import { nominationKeys } from './nomination-keys';
import { pagedList } from './paged';

/** GET /api/leaderboard/players?sport&board: a board's top 10 nominations. */
export const topPlayersQueryOptions = (sport: Sport, board: BoardKind = 'all') =>
  queryOptions({
    queryKey: nominationKeys.leaderboardPlayers(sport, board),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/leaderboard/players', { params: { query: { sport, board } }, signal })),
  });

/** How many past weeks a page of the Player of the Week history holds. */
export const HISTORY_WEEKS = 3;

/** GET /api/leaderboard/weekly-history?sport: past weeks' top 3, newest first, paged. */
export const weeklyHistoryQueryOptions = (sport: Sport) =>
  infiniteQueryOptions({
    queryKey: nominationKeys.weeklyHistory(sport),
    ...pagedList('/api/leaderboard/weekly-history', { query: { sport, limit: HISTORY_WEEKS } }),
  });

/** GET /api/leaderboard?sport: the top 10 scouts by nominations. */
export const topScoutsQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: nominationKeys.leaderboardScouts(sport),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/leaderboard', { params: { query: { sport } }, signal })),
  });

export function useTopPlayers(sport: Sport, board: BoardKind = 'all') {
  return useQuery(topPlayersQueryOptions(sport, board));
}

export function useWeeklyHistory(sport: Sport) {
  return useInfiniteQuery(weeklyHistoryQueryOptions(sport));
}

export function useTopScouts(sport: Sport) {
  return useQuery(topScoutsQueryOptions(sport));
}
