import type { WallPlayer, WallScout } from './types';

/** Leaderboards show the top 10. */
export const WALL_SIZE = 10;

/** The server's order: most votes first, ties by the older nomination (the lower id). */
export function byVotes(a: WallPlayer, b: WallPlayer): number {
  return b.voteCount - a.voteCount || a.id - b.id;
}

/** The server's order: most nominations first, ties by the earlier account (the lower id). */
export function byNominations(a: WallScout, b: WallScout): number {
  return b.nominationCount - a.nominationCount || a.id - b.id;
}

/** The top of a list in leaderboard order, at most WALL_SIZE long. */
export function topOf<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] {
  return [...items].sort(compare).slice(0, WALL_SIZE);
}

/**
 * A live vote count. The nomination moves to its new place; one that is not on the board is
 * ignored (if it now belongs in the top 10, the leaderboard event that follows brings it).
 * The same array comes back when nothing changed.
 */
export function applyVote<T extends WallPlayer>(
  players: T[] | undefined,
  { nominationId, voteCount }: { nominationId: number; voteCount: number },
): T[] | undefined {
  if (!players) return players;
  const current = players.find((player) => player.id === nominationId);
  if (!current || current.voteCount === voteCount) return players;
  return topOf(
    players.map((player) => (player.id === nominationId ? { ...player, voteCount } : player)),
    byVotes,
  );
}

// Tie numbering is shared with the Leaderboard page: one helper in src/lib.
export { rank, type Ranked } from '@/lib/ranks';
