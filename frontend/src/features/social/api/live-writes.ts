import { setLive, type LiveRereads, type LiveWrites } from '@/lib/live/reducers';

import { removeNominationActivities } from './get-feed';
import { feedKeys, followKeys, scoutKeys } from './keys';

/** What the live events write into the feed, the scouts' pages and the follow lists. */
export const socialLiveWrites = {
  'follow.own': (queryClient, event) => {
    // The reader followed or unfollowed in another tab: the Follow buttons of scouts here
    // follow (a read of the status on its way is dropped: it left before the change), and
    // what the reader follows is read again.
    const { userId, following } = event.data;
    if (userId !== null) {
      setLive(queryClient, followKeys.userStatus(userId), { isFollowing: following });
      void queryClient.invalidateQueries({ queryKey: scoutKeys.detail(userId) });
    }
    void queryClient.invalidateQueries({ queryKey: followKeys.followingLists() });
    void queryClient.invalidateQueries({ queryKey: feedKeys.all, refetchType: 'none' });
  },
  'nomination.removed': (queryClient, event) => {
    // Rejected, removed or taken down: the feed drops what it said about it at once.
    removeNominationActivities(queryClient, event.data.id);
  },
  'activity.created': (queryClient) => {
    // An open feed shows the activity behind its "new" pill (it listens on the live bus); any
    // other cached feed is read again when next shown.
    void queryClient.invalidateQueries({ queryKey: feedKeys.all, refetchType: 'none' });
  },
} satisfies LiveWrites;

/**
 * What the social reads need again when a group's events were missed: the feeds (a sport's
 * activity), and what the reader follows (their follow.own from other tabs).
 */
export const socialLiveRereads = {
  sport: [feedKeys.all],
  user: [followKeys.all, scoutKeys.all],
} satisfies LiveRereads;
