import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

import type { LiveEvent, LiveEventType } from '@/lib/live/protocol';
import { liveGroupKind, type LiveContext, type LiveReducer } from '@/lib/live/reducers';

import { liveReducers, liveRereads } from './live-reducers';

/**
 * Takes one live event into the query cache, where the screens read it: each write the table
 * lists for its type (live-reducers.ts), in order.
 */
export function applyLiveEvent(
  queryClient: QueryClient,
  event: LiveEvent,
  context: LiveContext = { viewerId: undefined },
) {
  // The table pairs each type with writes of that type (its `satisfies` checks it); TypeScript
  // cannot follow the pairing through a lookup by a union-typed key.
  const writes = liveReducers[event.type] as readonly LiveReducer<LiveEventType>[];
  for (const write of writes) write(queryClient, event, context);
}

/**
 * Reads again what the events of `groups` write, after some of them may have been missed: the
 * reads the table lists for each group's kind (live-reducers.ts).
 */
export function resyncLiveGroups(queryClient: QueryClient, groups: string[]) {
  const stale = new Map<string, QueryKey>();
  for (const group of groups) {
    const kind = liveGroupKind(group);
    if (!kind) continue;
    for (const queryKey of liveRereads[kind]) stale.set(hashKey(queryKey), queryKey);
  }
  for (const queryKey of stale.values()) void queryClient.invalidateQueries({ queryKey });
}
