import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { subscribeLiveEvents, subscribeLiveResync } from '@/lib/live/event-bus';
import { currentVoteCounts } from '@/lib/live/vote-versions';
import { useConnectionStore } from '@/stores/connection';
import type { Sport } from '@/stores/sport';

import { applyVote } from '../api/ranking';
import { pushActivity } from '../api/ticker';
import type { WallActivity, WallEntry, WallScout, WallWeek } from '../api/types';
import { wallKeys } from '../api/wall-keys';

/**
 * Keeps the wall's boards and ticker current from the sport's events. Whenever what it shows
 * may have fallen behind beyond what the live layer replays (a resync), it reads everything
 * again rather than show stale numbers.
 */
export function useWallLive(sport: Sport) {
  const queryClient = useQueryClient();

  useEffect(() => {
    const ours = (eventSport: string | undefined) => eventSport === sport;
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
      subscribeLiveEvents('vote.changed', (event) => {
        if (!ours(event.sport)) return;
        // All time ranks by the count itself, so it moves with each vote; the other boards
        // move with their own leaderboard.changed.
        const votes = currentVoteCounts(queryClient, event.data.votes);
        queryClient.setQueryData<WallEntry[]>(wallKeys.players(sport, 'all'), (players) =>
          votes.reduce(applyVote, players),
        );
      }),
      subscribeLiveEvents('leaderboard.changed', (event) => {
        if (!ours(event.sport)) return;
        const { data } = event;
        queryClient.setQueryData<WallEntry[]>(wallKeys.players(sport, data.board), data.players);
        if (data.board === 'all') {
          queryClient.setQueryData<WallScout[]>(wallKeys.scouts(sport), data.scouts);
        } else if (data.board === 'weekly') {
          // The week turning over comes as the weekly board's event: the countdown follows.
          queryClient.setQueryData<WallWeek>(wallKeys.week(), {
            week: data.week,
            resetsAt: data.resetsAt,
          });
        }
      }),
      subscribeLiveEvents('activity.created', (event) => {
        if (!ours(event.sport)) return;
        queryClient.setQueryData<WallActivity[]>(wallKeys.activity(sport), (activities) =>
          pushActivity(activities, event.data),
        );
      }),
      subscribeLiveEvents('nomination.removed', (event) => {
        if (!ours(event.sport)) return;
        // Rejected, removed or taken down: nothing on the wall may name it any more (the
        // boards' own leaderboard.changed follows).
        const { id } = event.data;
        queryClient.setQueryData<WallActivity[]>(wallKeys.activity(sport), (activities) =>
          activities?.filter((activity) => activity.relatedNominationId !== id),
        );
        for (const board of ['all', 'trending', 'weekly'] as const) {
          queryClient.setQueryData<WallEntry[]>(wallKeys.players(sport, board), (players) =>
            players?.filter((player) => player.id !== id),
          );
        }
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
