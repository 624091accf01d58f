import type { BoardKind } from '@/lib/boards';
import type { Sport } from '@/stores/sport';

/**
 * The first part of every query key, one per area of the cache. Each feature builds its keys
 * under its own root; a key more than one feature reads or writes (a follow status, a board)
 * is built here once, so two features never spell the same cache entry two ways.
 */
export const queryRoots = {
  auth: ['auth'],
  admin: ['admin'],
  nominations: ['nominations'],
  follow: ['follow'],
  feed: ['feed'],
  scouts: ['scouts'],
  profile: ['profile'],
  notifications: ['notifications'],
  settings: ['settings'],
  engagement: ['engagement'],
  wall: ['wall'],
} as const;

/**
 * Follow statuses and what the reader follows: the Follow Player button (nominations) and the
 * Follow scout button and following lists (social) read them, `follow.own` writes them.
 */
export const followKeys = {
  all: queryRoots.follow,
  statuses: () => [...followKeys.all, 'status'] as const,
  playerStatus: (playerId: number) => [...followKeys.statuses(), { playerId }] as const,
  userStatus: (userId: number) => [...followKeys.statuses(), { userId }] as const,
  followingLists: () => [...followKeys.all, 'following'] as const,
  following: (sport: Sport) => [...followKeys.followingLists(), { sport }] as const,
};

/**
 * A sport's boards, as GET /api/leaderboard/players and GET /api/leaderboard answer them: the
 * Leaderboard page and the wall read the same entries, so one live write moves both. They sit
 * under the nominations root because each player entry is a nomination every write about a
 * nomination reaches.
 */
export const boardKeys = {
  all: () => [...queryRoots.nominations, 'leaderboard'] as const,
  players: (sport: Sport, board: BoardKind = 'all') =>
    [...boardKeys.all(), 'players', sport, board] as const,
  scouts: (sport: Sport) => [...boardKeys.all(), 'scouts', sport] as const,
};
