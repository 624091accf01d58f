import { boardKeys, queryRoots } from '@/lib/query-keys';
import type { Sport } from '@/stores/sport';

/**
 * The wall's reads. Its boards are the Leaderboard page's entries (one cache entry per board,
 * one live write moves both); the ticker and the week are under ['wall', ...].
 */
export const wallKeys = {
  all: queryRoots.wall,
  players: boardKeys.players,
  scouts: boardKeys.scouts,
  activity: (sport: Sport) => [...wallKeys.all, 'activity', sport] as const,
  week: () => [...wallKeys.all, 'week'] as const,
};
