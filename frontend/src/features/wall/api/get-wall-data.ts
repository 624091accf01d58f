import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { BoardKind } from '@/lib/boards';
import type { Sport } from '@/stores/sport';

import { TICKER_SIZE } from './ticker';
import type { WallActivity, WallEntry, WallScout, WallWeek } from './types';
import { wallKeys } from './wall-keys';

/** GET /api/leaderboard/players?sport&board: a board's top 10 nominations. */
export const wallPlayersQueryOptions = (sport: Sport, board: BoardKind) =>
  queryOptions({
    queryKey: wallKeys.players(sport, board),
    queryFn: ({ signal }): Promise<WallEntry[]> =>
      unwrap(api.GET('/api/leaderboard/players', { params: { query: { sport, board } }, signal })),
  });

/** GET /api/leaderboard/week: the weekly board's week and when it resets. */
export const wallWeekQueryOptions = () =>
  queryOptions({
    queryKey: wallKeys.week(),
    queryFn: ({ signal }): Promise<WallWeek> =>
      unwrap(api.GET('/api/leaderboard/week', { signal })),
  });

/** GET /api/leaderboard?sport: the top 10 scouts by nominations. */
export const wallScoutsQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: wallKeys.scouts(sport),
    queryFn: ({ signal }): Promise<WallScout[]> =>
      unwrap(api.GET('/api/leaderboard', { params: { query: { sport } }, signal })),
  });

/** GET /api/feed?sport: the newest activity, which the ticker starts from. */
export const wallActivityQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: wallKeys.activity(sport),
    queryFn: ({ signal }): Promise<WallActivity[]> =>
      unwrap(api.GET('/api/feed', { params: { query: { sport, limit: TICKER_SIZE } }, signal })),
  });

/** The boards the wall shows, all read at once so a rotation never waits. */
export function useWallBoards(sport: Sport, boards: readonly BoardKind[]) {
  return useQueries({ queries: boards.map((board) => wallPlayersQueryOptions(sport, board)) });
}

export function useWallWeek() {
  return useQuery(wallWeekQueryOptions());
}

export function useWallScouts(sport: Sport) {
  return useQuery(wallScoutsQueryOptions(sport));
}

export function useWallActivity(sport: Sport) {
  return useQuery(wallActivityQueryOptions(sport));
}
