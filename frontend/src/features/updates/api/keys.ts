import { queryRoots } from '@/lib/query-keys';

/** A player's updates, as GET /api/players/{id}/updates pages them (newest first). */
export const updateKeys = {
  all: queryRoots.updates,
  player: (playerId: number) => [...updateKeys.all, 'player', playerId] as const,
};
