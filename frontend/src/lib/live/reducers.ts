import type { QueryClient, QueryKey } from '@tanstack/react-query';

import type { LiveEvent, LiveEventType } from './protocol';

/** What a live write may know besides the event: who is reading. */
export type LiveContext = { viewerId: number | undefined };

/**
 * One feature's write of one event type into the query cache. It touches the cache only (no
 * toast, no timer, no animation: those listen on the live bus), so applying an event is the
 * same wherever it comes from, and a test can compare the cache it leaves with a fresh read.
 */
export type LiveReducer<T extends LiveEventType> = (
  queryClient: QueryClient,
  event: LiveEvent<T>,
  context: LiveContext,
) => void;

/** The writes a feature makes, per event type it handles (declare with `satisfies`). */
export type LiveWrites = { [T in LiveEventType]?: LiveReducer<T> };

/**
 * The app's table: every event type with the writes of every feature that handles it, in the
 * order they run. An empty list says, on purpose, that no cache holds what the event tells.
 */
export type LiveReducerTable = { readonly [T in LiveEventType]: readonly LiveReducer<T>[] };

/**
 * Sets a query's data from a live event, first cancelling a read of it still on its way (that
 * read left before the change the event tells of, so its answer would be older). The cancelled
 * read's revert happens at once, before the new data are set, and a manual set is what later
 * reverts return to.
 */
export function setLive<T>(queryClient: QueryClient, queryKey: QueryKey, data: T) {
  void queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.setQueryData<T>(queryKey, data);
}

/**
 * Updates a cached read with `update` where it changes it, and leaves a read marked stale
 * (to be read again: an earlier write of the same event, or of one before it, asked for that)
 * still marked. `setQueryData` alone would mark it fresh, and what the update adds is not all
 * that read lacks: an admin's decided list, marked stale by a decision, would otherwise keep
 * its old items when the decided nomination's update is written into it.
 */
export function updateLive<T>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  update: (data: T | undefined) => T | undefined,
) {
  const query = queryClient.getQueryCache().find({ queryKey, exact: true });
  if (!query) return;
  const before = query.state.data as T | undefined;
  const after = update(before);
  if (after === undefined || after === before) return;
  const stale = query.state.isInvalidated;
  queryClient.setQueryData<T>(queryKey, after);
  if (stale) void queryClient.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
}

/** A live group's kind: a sport's (`sport.<sport>`), a user's own (`user.<id>`), the admins'. */
export type LiveGroupKind = 'sport' | 'user' | 'admins';

export function liveGroupKind(group: string): LiveGroupKind | undefined {
  if (group.startsWith('sport.')) return 'sport';
  if (group.startsWith('user.')) return 'user';
  if (group === 'admins') return 'admins';
  return undefined;
}

/**
 * What a feature reads again, per kind of group, when the group is joined without its events
 * (its first subscription, a sequence that started over, a resync, a 4001 close): the reads the
 * group's events write (declare with `satisfies`).
 */
export type LiveRereads = { readonly [K in LiveGroupKind]?: readonly QueryKey[] };

/** The app's table of rereads: every kind of group with the reads of every feature. */
export type LiveRereadTable = { readonly [K in LiveGroupKind]: readonly QueryKey[] };
