import type {
  AdminNomination,
  AdminStats,
  DecidedMark,
  ModerationChanged,
  PendingItem,
  PendingQueue,
  Player,
} from './types';

/**
 * Pure merges of the pending queue and the decided lists with what mutations and live events
 * say. Each returns its input unchanged (the same object) when nothing changed, so the cache
 * notifies no one for an event about an item it does not hold.
 */

type ItemChange<T> = (item: T) => T | null;

function mapList<T>(items: T[], change: ItemChange<T>): T[] {
  let changed = false;
  const next: T[] = [];
  for (const item of items) {
    const mapped = change(item);
    if (mapped !== item) changed = true;
    if (mapped !== null) next.push(mapped);
  }
  return changed ? next : items;
}

/** Applies `change` to every item of a list: return the item to keep it, null to drop it. */
export function mapNominations<T extends AdminNomination>(
  items: T[] | undefined,
  change: ItemChange<T>,
): T[] | undefined {
  return items && mapList(items, change);
}

/** Applies `change` to every item of every page of the queue. */
export function mapQueue(
  queue: PendingQueue | undefined,
  change: ItemChange<PendingItem>,
): PendingQueue | undefined {
  if (!queue) return queue;
  let changed = false;
  const pages = queue.pages.map((page) => {
    const items = mapList(page.items, change);
    if (items === page.items) return page;
    changed = true;
    return { ...page, items };
  });
  return changed ? { ...queue, pages } : queue;
}

export function queueItems(queue: PendingQueue | undefined): PendingItem[] {
  if (!queue) return [];
  const seen = new Set<number>();
  const items: PendingItem[] = [];
  for (const page of queue.pages) {
    for (const item of page.items) {
      if (!seen.has(item.id)) {
        seen.add(item.id);
        items.push(item);
      }
    }
  }
  return items;
}

export function findInQueue(queue: PendingQueue | undefined, id: number): PendingItem | undefined {
  for (const page of queue?.pages ?? []) {
    const found = page.items.find((item) => item.id === id);
    if (found) return found;
  }
  return undefined;
}

/** A new pending nomination goes on top (the queue is newest first), once. */
export function addToQueue(
  queue: PendingQueue | undefined,
  nomination: AdminNomination,
): PendingQueue | undefined {
  if (!queue || nomination.status !== 'pending' || findInQueue(queue, nomination.id)) return queue;
  const [first, ...rest] = queue.pages;
  if (!first) return queue;
  return { ...queue, pages: [{ ...first, items: [nomination, ...first.items] }, ...rest] };
}

export function removeFromQueue(
  queue: PendingQueue | undefined,
  id: number,
): PendingQueue | undefined {
  return mapQueue(queue, (item) => (item.id === id ? null : item));
}

/**
 * A nomination's new content (an edit, a verification). An item decided elsewhere keeps its
 * mark; one that is no longer pending without a mark (its decision came in another way) leaves.
 */
export function updateInQueue(
  queue: PendingQueue | undefined,
  nomination: AdminNomination,
): PendingQueue | undefined {
  return mapQueue(queue, (item) => {
    if (item.id !== nomination.id) return item;
    if (item.decided) return { ...nomination, decided: item.decided };
    return nomination.status === 'pending' ? nomination : null;
  });
}

/** A nomination removed (its nominator's account was deleted); a marked item leaves on its timer. */
export function removedFromQueue(
  queue: PendingQueue | undefined,
  id: number,
): PendingQueue | undefined {
  return mapQueue(queue, (item) => (item.id === id && !item.decided ? null : item));
}

export function markInQueue(
  queue: PendingQueue | undefined,
  id: number,
  mark: DecidedMark,
): PendingQueue | undefined {
  return mapQueue(queue, (item) =>
    item.id === id && !item.decided ? { ...item, decided: mark } : item,
  );
}

/**
 * A decision seen live. The deciding admin's own queue already dropped the item; every other
 * admin's queue keeps it briefly, marked with who decided (the caller removes it later).
 */
export function decideInQueue(
  queue: PendingQueue | undefined,
  event: ModerationChanged,
  viewerId: number | undefined,
): PendingQueue | undefined {
  if (event.by && event.by.id === viewerId) return removeFromQueue(queue, event.item.id);
  return markInQueue(queue, event.item.id, { action: event.action, by: event.by });
}

/** A nomination's count and the version it is of (which later counts are checked against). */
/** The nomination ``nominationId`` with its published comments' count. */
export function withCommentCount<T extends AdminNomination>(
  nominationId: number,
  commentCount: number,
) {
  return (item: T): T =>
    item.id === nominationId && item.commentCount !== commentCount
      ? { ...item, commentCount }
      : item;
}

export function withVoteCount<T extends AdminNomination>(
  nominationId: number,
  voteCount: number,
  version: number,
) {
  return (item: T): T =>
    item.id === nominationId && (item.voteCount !== voteCount || item.version !== version)
      ? { ...item, voteCount, version }
      : item;
}

export function withPlayer<T extends AdminNomination>(player: Player) {
  return (item: T): T => (item.player.id === player.id ? { ...item, player } : item);
}

export function withNomination<T extends AdminNomination>(nomination: AdminNomination) {
  return (item: T): T => (item.id === nomination.id ? { ...item, ...nomination } : item);
}

export function without<T extends AdminNomination>(id: number) {
  return (item: T): T | null => (item.id === id ? null : item);
}

/** The stat cards and tab counts after a decision, from the counts the event carries. */
export function statsWithCounts(
  stats: AdminStats | undefined,
  { pending, approved, rejected }: Pick<ModerationChanged, 'pending' | 'approved' | 'rejected'>,
): AdminStats | undefined {
  return (
    stats && {
      ...stats,
      pendingNominations: pending,
      approvedNominations: approved,
      rejectedNominations: rejected,
    }
  );
}
