import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { subscribeLiveEvents, subscribeLiveResync } from '@/lib/live/event-bus';
import { currentVoteCounts } from '@/lib/live/vote-versions';
import { useConnectionStore } from '@/stores/connection';
import type { Sport } from '@/stores/sport';

import { applyVote } from '../api/ranking';
import { pushActivity } from '../api/ticker';
import type { WallActivity, WallPlayer, WallScout } from '../api/types';
import { wallKeys } from '../api/wall-keys';

/**
 * Keeps the wall's boards and ticker current from the sport's events. Whenever what it shows
 * may have fallen behind (a resync, or the socket coming back after it was lost), it reads
 * everything again rather than show stale numbers.
 */
export function useWallLive(sport: Sport) {
  const queryClient = useQueryClient();

  useEffect(() => {
    const ours = (eventSport: string | undefined) => eventSport === sport;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: wallKeys.all });

    let wasOpen = useConnectionStore.getState().status === 'open';
    const stopWatchingConnection = useConnectionStore.subscribe(({ status }) => {
      const open = status === 'open';
      if (open && !wasOpen) refresh();
      wasOpen = open;
    });

    const unsubscribe = [
      subscribeLiveEvents('vote.changed', (event) => {
        if (!ours(event.sport)) return;
        const votes = currentVoteCounts(queryClient, event.data.votes);
        queryClient.setQueryData<WallPlayer[]>(wallKeys.players(sport), (players) =>
          votes.reduce(applyVote, players),
        );
      }),
      subscribeLiveEvents('leaderboard.changed', (event) => {
        if (!ours(event.sport) || event.data.board !== 'all') return;
        queryClient.setQueryData<WallPlayer[]>(wallKeys.players(sport), event.data.players);
        queryClient.setQueryData<WallScout[]>(wallKeys.scouts(sport), event.data.scouts);
      }),
      subscribeLiveEvents('activity.created', (event) => {
        if (!ours(event.sport)) return;
        queryClient.setQueryData<WallActivity[]>(wallKeys.activity(sport), (activities) =>
          pushActivity(activities, event.data),
        );
      }),
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
