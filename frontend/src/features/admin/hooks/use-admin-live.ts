import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { subscribeLiveEvents } from '@/lib/live/event-bus';

import { isMarkedDecided, refreshStats, removeAllDecided, removeDecided } from '../api/admin-cache';

/** How long an item another admin decided stays in the queue, greyed, with its mark. */
export const DECIDED_MARK_MS = 4000;

/**
 * Votes carry no admin totals: the stats are read again at most this often while votes come in
 * (those of the sport the admin's socket follows).
 */
const VOTE_STATS_REFRESH_MS = 2000;

/**
 * What the open dashboard adds to the live writes (features/admin/api/live-writes.ts), which
 * keep its reads current: an item another admin decided stays greyed for a moment and then
 * goes, and the stats are read again while votes come in. What a resync reads again is the
 * app's table (src/app/live-reducers.ts).
 */
export function useAdminLive() {
  const queryClient = useQueryClient();

  useEffect(() => {
    const timers = new Map<number, ReturnType<typeof setTimeout>>();
    const removeLater = (id: number) => {
      clearTimeout(timers.get(id));
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          removeDecided(queryClient, id);
        }, DECIDED_MARK_MS),
      );
    };

    let statsTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshStatsSoon = () => {
      statsTimer ??= setTimeout(() => {
        statsTimer = undefined;
        refreshStats(queryClient);
      }, VOTE_STATS_REFRESH_MS);
    };

    // Marks are shown only while the dashboard is open, each for a moment: one left from a
    // decision taken while it was closed has no timer, so it goes now.
    removeAllDecided(queryClient);

    const unsubscribe = [
      // After the live write has marked the item (decided by another admin): it goes later.
      subscribeLiveEvents('moderation.changed', ({ data }) => {
        if (isMarkedDecided(queryClient, data.item.id)) removeLater(data.item.id);
      }),
      subscribeLiveEvents('vote.changed', refreshStatsSoon),
    ];

    return () => {
      for (const stop of unsubscribe) stop();
      for (const timer of timers.values()) clearTimeout(timer);
      clearTimeout(statsTimer);
      // Marks without their timers would stay forever: the queue is shown without them.
      removeAllDecided(queryClient);
    };
  }, [queryClient]);
}
