import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';
import { isSport } from '@/stores/sport';

import { pushActivity } from './ticker';
import type { WallActivity, WallWeek } from './types';
import { wallKeys } from './wall-keys';

/**
 * What the live events write into the wall's own reads: the ticker and the weekly countdown.
 * Its boards are the Leaderboard page's entries, which the nominations' writes keep.
 */
export const wallLiveWrites = {
  'leaderboard.changed': (queryClient, event) => {
    // The week turning over comes as the weekly board's event: the countdown follows.
    const { data } = event;
    if (data.board === 'weekly') {
      queryClient.setQueryData<WallWeek>(wallKeys.week(), {
        week: data.week,
        resetsAt: data.resetsAt,
      });
    }
  },
  'activity.created': (queryClient, event) => {
    if (!isSport(event.sport)) return;
    queryClient.setQueryData<WallActivity[]>(wallKeys.activity(event.sport), (activities) =>
      pushActivity(activities, event.data),
    );
  },
  'nomination.removed': (queryClient, event) => {
    // Rejected, removed or taken down: the ticker no longer names it.
    if (!isSport(event.sport)) return;
    const { id } = event.data;
    queryClient.setQueryData<WallActivity[]>(wallKeys.activity(event.sport), (activities) =>
      activities?.filter((activity) => activity.relatedNominationId !== id),
    );
  },
} satisfies LiveWrites;

/**
 * The wall's ticker and countdown, read again when a sport's events were missed (its first
 * subscription after the wall was read included). Its boards are the nominations' reads.
 */
export const wallLiveRereads = { sport: [wallKeys.all] } satisfies LiveRereads;
