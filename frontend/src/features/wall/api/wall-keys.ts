import type { BoardKind } from '@/lib/boards';
import type { Sport } from '@/stores/sport';

/** The wall's reads, under ['wall', ...] so a resync or a reconnect refreshes them at once. */
export const wallKeys = {
  all: ['wall'] as const,
  players: (sport: Sport, board: BoardKind) => [...wallKeys.all, 'players', sport, board] as const,
  scouts: (sport: Sport) => [...wallKeys.all, 'scouts', sport] as const,
  activity: (sport: Sport) => [...wallKeys.all, 'activity', sport] as const,
  week: () => [...wallKeys.all, 'week'] as const,
};
