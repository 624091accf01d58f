import type { QueryClient } from '@tanstack/react-query';

import { nominationKeys } from '@/features/nominations/api/nomination-keys';
import { profileKeys } from '@/features/profile/api/keys';
import { feedKeys } from '@/features/social/api/keys';
import type { LiveEvent, LiveEventType } from '@/lib/live/protocol';
import type { LiveContext, LiveReducer } from '@/lib/live/reducers';

import { liveReducers } from './live-reducers';

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
 * Reads again what a group's events feed, after some of them may have been missed: a sport's
 * nominations, leaderboards, stats and feed; a user's own nominations and profile (the bell
 * reads its notifications again itself).
 */
export function resyncLiveGroups(queryClient: QueryClient, groups: string[]) {
  const stale = new Set<readonly unknown[]>();
  for (const group of groups) {
    if (group.startsWith('sport.')) {
      stale.add(nominationKeys.all);
      stale.add(feedKeys.all);
    } else if (group.startsWith('user.')) {
      stale.add(nominationKeys.byUsers());
      stale.add(profileKeys.all);
    }
  }
  for (const queryKey of stale) void queryClient.invalidateQueries({ queryKey });
}
