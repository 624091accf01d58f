export type Ranked<T> = { item: T; rank: number };

/**
 * Standard competition ranks ("1, 2, 2, 4"): equal scores share a rank, the next score's rank
 * counts everyone above it. `items` must already be in leaderboard order. The one numbering of
 * ties everywhere: /results, the home page and /wall.
 */
export function rank<T>(items: readonly T[], score: (item: T) => number): Ranked<T>[] {
  const ranked: Ranked<T>[] = [];
  items.forEach((item, index) => {
    const previous = ranked[index - 1];
    const tied = previous !== undefined && score(previous.item) === score(item);
    ranked.push({ item, rank: tied ? previous.rank : index + 1 });
  });
  return ranked;
}

/** Boards show the top 10, on the pages and on the wall. */
export const BOARD_SIZE = 10;

type Voted = { id: number; voteCount: number };

/**
 * The all-time board's order, the server's: most votes first, ties by the older nomination (the
 * lower id). The pages, the wall and the live writes that move a board all sort by it.
 */
export function byVotes(a: Voted, b: Voted): number {
  return b.voteCount - a.voteCount || a.id - b.id;
}

/** The scouts' board order, the server's: most nominations first, ties by the lower id. */
export function byNominations(
  a: { id: number; nominationCount: number },
  b: { id: number; nominationCount: number },
): number {
  return b.nominationCount - a.nominationCount || a.id - b.id;
}

/** The top of a list in board order, at most BOARD_SIZE long. */
export function topOf<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] {
  return [...items].sort(compare).slice(0, BOARD_SIZE);
}

/**
 * A live vote count on the all-time board: the nomination moves to its new place; one that is
 * not on the board is left out (if it now belongs in the top 10, the board's own event brings
 * it). The same array comes back when nothing changed.
 */
export function applyVote<T extends Voted>(
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
