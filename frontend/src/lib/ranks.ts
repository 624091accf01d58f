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
