import type { BoardKind } from '@/lib/boards';
import type { Sport } from '@/stores/sport';

export type NominationListFilters = { sport: Sport; q: string };

/**
 * Every nomination read lives under ['nominations', ...], from general to specific, so a write
 * can refresh all of them at once and a live event can find each cached copy of a nomination.
 */
export const nominationKeys = {
  all: ['nominations'] as const,
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
  leaderboards: () => [...nominationKeys.all, 'leaderboard'] as const,
  leaderboardPlayers: (sport: Sport, board: BoardKind = 'all') =>
    [...nominationKeys.leaderboards(), 'players', sport, board] as const,
  leaderboardScouts: (sport: Sport) => [...nominationKeys.leaderboards(), 'scouts', sport] as const,
  /** Player of the Week: past weeks' top 3 (pages of WeekWinnersOut, not nominations). */
  weeklyHistory: (sport: Sport) => [...nominationKeys.leaderboards(), 'history', sport] as const,
  /** The week the weekly board counts, as its last event told (no read of its own). */
  boardWeek: (sport: Sport) => [...nominationKeys.leaderboards(), 'week', sport] as const,
};

/** The mutation key every vote and unvote shares, to tell when the last one settles. */
export const voteMutationKey = [...nominationKeys.all, 'vote'] as const;
