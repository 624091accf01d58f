import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { subscribeLiveResync } from '@/lib/live/event-bus';
import { useConnectionStore } from '@/stores/connection';
import type { Sport } from '@/stores/sport';

import { wallKeys } from '../api/wall-keys';

/**
 * Reads the wall again whenever what it shows may have fallen behind beyond what the live layer
 * replays (the socket's first opening after the wall was read, a resync), rather than show stale
 * numbers. The events themselves are written into its reads by the live writes (src/app).
 */
export function useWallLive(sport: Sport) {
  const queryClient = useQueryClient();

  useEffect(() => {
    // The boards are the Leaderboard page's reads, which the app reads again itself whenever
    // the sport's group is (re)joined without its events (src/app/live-sync.ts).
    const refresh = () => void queryClient.invalidateQueries({ queryKey: wallKeys.all });

    // Read once more when the socket first opens after the wall was read (events may have
    // passed in between). A socket that comes back later resumes where it was and gets the
    // boards whole (the snapshot): the wall is right again without reading anything; events
    // that could not be replayed come as a resync, which reads again.
    let seenOpen = useConnectionStore.getState().status === 'open';
    const stopWatchingConnection = useConnectionStore.subscribe(({ status }) => {
      if (status === 'open' && !seenOpen) {
        seenOpen = true;
        refresh();
      }
    });

    const unsubscribe = [
      subscribeLiveResync((groups) => {
        if (groups.includes(`sport.${sport}`)) refresh();
      }),
      stopWatchingConnection,
    ];
    return () => {
      for (const stop of unsubscribe) stop();
    };
  }, [queryClient, sport]);
}
