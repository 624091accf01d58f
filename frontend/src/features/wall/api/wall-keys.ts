import type { Sport } from '@/stores/sport';

/** The wall's reads, under ['wall', ...] so a resync or a reconnect refreshes them at once. */
export const wallKeys = {
  all: ['wall'] as const,
  players: (sport: Sport) => [...wallKeys.all, 'players', sport] as const,
  scouts: (sport: Sport) => [...wallKeys.all, 'scouts', sport] as const,
  activity: (sport: Sport) => [...wallKeys.all, 'activity', sport] as const,
};
