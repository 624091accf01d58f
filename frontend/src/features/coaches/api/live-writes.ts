import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';
import { coachIdsKey } from '@/lib/query-keys';

import { endorsementKeys } from './endorsements';
import { verificationKey } from './verification';

/**
 * What the live events write into the coaches' reads: a player's endorsements are read again
 * (the event carries only the count: the text is for members, the rating for some readers).
 */
export const coachLiveWrites = {
  'endorsements.changed': (queryClient, event) => {
    void queryClient.invalidateQueries({ queryKey: endorsementKeys.player(event.data.playerId) });
  },
  'coaches.changed': (queryClient) => {
    // An admin's decision adds or takes away a "Verified coach" badge.
    void queryClient.invalidateQueries({ queryKey: coachIdsKey() });
  },
} satisfies LiveWrites;

/** Read again when a group's events were missed: a sport's pages, the reader's own request. */
export const coachLiveRereads = {
  sport: [endorsementKeys.all()],
  user: [endorsementKeys.all(), verificationKey()],
  admins: [endorsementKeys.all(), coachIdsKey()],
} satisfies LiveRereads;
