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
  updates: ['updates'],
  coaches: ['coaches'],
  comments: ['comments'],
  clubs: ['clubs'],
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

/**
 * The verified coaches' ids: every name the SPA shows reads them for its "Verified coach"
 * badge (src/components/coach-badge.tsx), and the coaches feature's writes refresh them.
 */
export const coachIdsKey = () => [...queryRoots.coaches, 'ids'] as const;

/**
 * Clubs: the suggestions the nomination form (nominations) reads as a club is typed, and a
 * club's page (clubs), which the live votes on its players write.
 */
export const clubKeys = {
  all: queryRoots.clubs,
  suggestions: (sport: string, q: string) =>
    [...clubKeys.all, 'suggestions', { sport, q }] as const,
  details: () => [...clubKeys.all, 'detail'] as const,
  detail: (clubId: number) => [...clubKeys.details(), clubId] as const,
  ofPlayer: (playerId: number) => [...clubKeys.all, 'of-player', playerId] as const,
};
