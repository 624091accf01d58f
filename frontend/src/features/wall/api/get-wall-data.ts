import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Sport } from '@/stores/sport';

import { TICKER_SIZE } from './ticker';
import type { WallActivity, WallPlayer, WallScout } from './types';
import { wallKeys } from './wall-keys';

/** GET /api/leaderboard/players?sport: the top 10 nominations by votes. */
export const wallPlayersQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: wallKeys.players(sport),
    queryFn: ({ signal }) =>
      api.get<WallPlayer[]>('/api/leaderboard/players', { params: { sport }, signal }),
  });

/** GET /api/leaderboard?sport: the top 10 scouts by nominations. */
export const wallScoutsQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: wallKeys.scouts(sport),
    queryFn: ({ signal }) =>
      api.get<WallScout[]>('/api/leaderboard', { params: { sport }, signal }),
  });

/** GET /api/feed?sport: the newest activity, which the ticker starts from. */
export const wallActivityQueryOptions = (sport: Sport) =>
  queryOptions({
    queryKey: wallKeys.activity(sport),
    queryFn: ({ signal }) =>
      api.get<WallActivity[]>('/api/feed', { params: { sport, limit: TICKER_SIZE }, signal }),
  });

export function useWallPlayers(sport: Sport) {
  return useQuery(wallPlayersQueryOptions(sport));
}

export function useWallScouts(sport: Sport) {
  return useQuery(wallScoutsQueryOptions(sport));
}

export function useWallActivity(sport: Sport) {
  return useQuery(wallActivityQueryOptions(sport));
}
