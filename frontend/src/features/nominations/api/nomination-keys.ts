import type { BoardKind } from '@/lib/boards';
import { boardKeys, queryRoots } from '@/lib/query-keys';
import type { Sport } from '@/stores/sport';

export type NominationListFilters = { sport: Sport; q: string };

/**
 * Every nomination read lives under ['nominations', ...], from general to specific, so a write
 * can refresh all of them at once and a live event can find each cached copy of a nomination.
 */
export const nominationKeys = {
  all: queryRoots.nominations,
  lists: () => [...nominationKeys.all, 'list'] as const,
  list: (filters: NominationListFilters) => [...nominationKeys.lists(), filters] as const,
  recents: () => [...nominationKeys.all, 'recent'] as const,
  recent: (sport: Sport) => [...nominationKeys.recents(), sport] as const,
  needingVotesAll: () => [...nominationKeys.all, 'needing-votes'] as const,
  needingVotes: (sport: Sport) => [...nominationKeys.needingVotesAll(), sport] as const,
  details: () => [...nominationKeys.all, 'detail'] as const,
  detail: (id: number) => [...nominationKeys.details(), id] as const,
  byUsers: () => [...nominationKeys.all, 'user'] as const,
  byUser: (userId: number) => [...nominationKeys.byUsers(), userId] as const,
  allStats: () => [...nominationKeys.all, 'stats'] as const,
  stats: (sport: Sport) => [...nominationKeys.allStats(), sport] as const,
  /** The boards (shared with the wall: src/lib/query-keys.ts). */
  leaderboards: boardKeys.all,
  leaderboardPlayers: (sport: Sport, board: BoardKind = 'all') => boardKeys.players(sport, board),
  leaderboardScouts: boardKeys.scouts,
  /** Player of the Week: past weeks' top 3 (pages of WeekWinnersOut, not nominations). */
  weeklyHistory: (sport: Sport) => [...nominationKeys.leaderboards(), 'history', sport] as const,
  /** The week the weekly board counts, as its last event told (no read of its own). */
  boardWeek: (sport: Sport) => [...nominationKeys.leaderboards(), 'week', sport] as const,
};

/** The mutation key every vote and unvote shares, to tell when the last one settles. */
export const voteMutationKey = [...nominationKeys.all, 'vote'] as const;
