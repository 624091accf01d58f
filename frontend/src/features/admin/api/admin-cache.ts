import type { QueryClient } from '@tanstack/react-query';

import { updateLive } from '@/lib/live/reducers';

import { adminKeys } from './admin-keys';
import {
  addToQueue,
  decideInQueue,
  mapNominations,
  mapQueue,
  removedFromQueue,
  removeFromQueue,
  statsWithCounts,
  updateInQueue,
  withNomination,
  withCommentCount,
  withPlayer,
  withVoteCount,
  without,
} from './queue';
import type {
  AdminNomination,
  AdminStats,
  Decision,
  ModerationChanged,
  PendingItem,
  PendingQueue,
  Player,
} from './types';

/**
 * How the admin caches follow mutations and live events: the pending queue, the approved and
 * rejected lists, and the stats behind the cards and tab counts.
 */

const DECISIONS: Decision[] = ['approved', 'rejected'];

function setQueue(
  queryClient: QueryClient,
  update: (queue: PendingQueue | undefined) => PendingQueue | undefined,
) {
  updateLive<PendingQueue>(queryClient, adminKeys.pending(), update);
}

function setDecidedLists(
  queryClient: QueryClient,
  change: (item: AdminNomination) => AdminNomination | null,
) {
  for (const status of DECISIONS) {
    updateLive<AdminNomination[]>(queryClient, adminKeys.decided(status), (items) =>
      mapNominations(items, change),
    );
  }
}

export function refreshStats(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
}

/** What a decision changes besides the queue and the counts: the decided lists, and points. */
function refreshDecisionViews(queryClient: QueryClient, statuses: Decision[] = DECISIONS) {
  for (const status of statuses) {
    void queryClient.invalidateQueries({ queryKey: adminKeys.decided(status) });
  }
  void queryClient.invalidateQueries({ queryKey: adminKeys.topScouts() });
}

/**
 * This admin decided an item: it leaves the queue now. The counts are read again rather than
 * moved here: the decision's live event, with the exact counts, may already have come.
 */
export function applyOwnDecision(queryClient: QueryClient, id: number, decision: Decision) {
  setQueue(queryClient, (queue) => removeFromQueue(queue, id));
  refreshStats(queryClient);
  refreshDecisionViews(queryClient, [decision]);
}

/**
 * Someone decided first (409): the item leaves the queue and everything it touched is read
 * again, so nothing is left half-done.
 */
export function applyLostDecision(queryClient: QueryClient, id: number) {
  setQueue(queryClient, (queue) => removeFromQueue(queue, id));
  refreshStats(queryClient);
  refreshDecisionViews(queryClient);
}

/**
 * `moderation.changed`: the counts come with the event; the item leaves this admin's queue (at
 * once if they decided it, else marked with who decided it: `isMarkedDecided` tells, and the
 * dashboard removes it after a moment).
 */
export function applyModerationChanged(
  queryClient: QueryClient,
  event: ModerationChanged,
  viewerId: number | undefined,
) {
  queryClient.setQueryData<AdminStats>(adminKeys.stats(), (stats) => statsWithCounts(stats, event));
  setQueue(queryClient, (queue) => decideInQueue(queue, event, viewerId));
  refreshDecisionViews(queryClient, [event.action]);
}

/** Whether the queue shows item `id` greyed, decided by another admin. */
export function isMarkedDecided(queryClient: QueryClient, id: number): boolean {
  const queue = queryClient.getQueryData<PendingQueue>(adminKeys.pending());
  return Boolean(
    queue?.pages.some((page) => page.items.some((item) => item.id === id && item.decided)),
  );
}

export function removeDecided(queryClient: QueryClient, id: number) {
  setQueue(queryClient, (queue) =>
    mapQueue(queue, (item: PendingItem) => (item.id === id && item.decided ? null : item)),
  );
}

/** Every item still shown greyed leaves (the page that kept them is going away). */
export function removeAllDecided(queryClient: QueryClient) {
  setQueue(queryClient, (queue) => mapQueue(queue, (item) => (item.decided ? null : item)));
}

/** `nomination.created`: a new pending nomination joins the queue on top. */
export function applyNominationCreated(queryClient: QueryClient, nomination: AdminNomination) {
  setQueue(queryClient, (queue) => addToQueue(queue, nomination));
  refreshStats(queryClient);
}

/** `nomination.updated`: an edit or a verification, wherever the nomination is shown. */
export function applyNominationUpdated(queryClient: QueryClient, nomination: AdminNomination) {
  setQueue(queryClient, (queue) => updateInQueue(queue, nomination));
  setDecidedLists(queryClient, withNomination(nomination));
}

/** `nomination.removed`: gone with its nominator's account. */
export function applyNominationRemoved(queryClient: QueryClient, id: number) {
  setQueue(queryClient, (queue) => removedFromQueue(queue, id));
  setDecidedLists(queryClient, without(id));
  refreshStats(queryClient);
}

/** `vote.changed`: the count on the item, wherever it is shown. */
export function applyVoteChanged(
  queryClient: QueryClient,
  {
    nominationId,
    voteCount,
    version,
  }: { nominationId: number; voteCount: number; version: number },
) {
  const change = withVoteCount(nominationId, voteCount, version);
  setQueue(queryClient, (queue) => mapQueue(queue, change));
  setDecidedLists(queryClient, change);
}

/** A comment published or gone: the nomination's count in the queue and the decided lists. */
export function applyCommentCount(
  queryClient: QueryClient,
  { nominationId, commentCount }: { nominationId: number; commentCount: number },
) {
  const change = withCommentCount(nominationId, commentCount);
  setQueue(queryClient, (queue) => mapQueue(queue, change));
  setDecidedLists(queryClient, change);
}

/** A player changed (verified or edited): every nomination of it shows the change. */
export function applyPlayer(queryClient: QueryClient, player: Player) {
  setQueue(queryClient, (queue) => mapQueue(queue, withPlayer(player)));
  setDecidedLists(queryClient, withPlayer(player));
}

/** After a reconnect or a gap in the live stream: read every admin view again. */
export function refreshAdmin(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: adminKeys.all });
}
