import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';

import type { Sport } from '@/stores/sport';

import { prependActivities } from '../api/get-feed';
import type { Activity } from '../api/types';

/**
 * Subscribes to activities pushed live (the live layer's activity.created events) and returns
 * the unsubscribe function. `sport` is the event's sport group, when the layer passes it.
 */
export type ActivitySubscription = (
  onActivity: (activity: Activity, sport?: string | null) => void,
) => () => void;

/** Past this many pixels of scrolling, a new activity waits instead of moving the list. */
export const SCROLLED_PAST_PX = 120;
/** How long an activity that just arrived stays highlighted. */
const HIGHLIGHT_MS = 6000;

type LiveActivitiesOptions = {
  sport: Sport;
  following: boolean;
  subscribe?: ActivitySubscription;
  /** Whether an activity belongs in the feed as filtered (the "Following" filter). */
  accepts: (activity: Activity) => boolean;
};

/**
 * Key the component using this by sport and filter: what waits belongs to one feed.
 *
 * New activity goes to the top of the feed at once while the reader is at the top; once they
 * have scrolled it waits, counted, until they ask for it, so what they read does not move.
 */
export function useLiveActivities({ sport, following, subscribe, accepts }: LiveActivitiesOptions) {
  const queryClient = useQueryClient();
  const [waiting, setWaiting] = useState<Activity[]>([]);
  const [highlighted, setHighlighted] = useState<ReadonlySet<number>>(() => new Set());
  const acceptsRef = useRef(accepts);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    acceptsRef.current = accepts;
  }, [accepts]);

  const reveal = useCallback(
    (activities: Activity[]) => {
      if (activities.length === 0) return;
      prependActivities(queryClient, { sport, following }, activities);
      const ids = activities.map((activity) => activity.id);
      setHighlighted((current) => new Set([...current, ...ids]));
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        setHighlighted((current) => new Set([...current].filter((id) => !ids.includes(id))));
      }, HIGHLIGHT_MS);
      timers.current.add(timer);
    },
    [queryClient, sport, following],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  useEffect(() => {
    if (!subscribe) return;
    return subscribe((activity, eventSport) => {
      if (eventSport && eventSport !== sport) return;
      if (!acceptsRef.current(activity)) return;
      if (window.scrollY > SCROLLED_PAST_PX) {
        setWaiting((current) =>
          current.some((item) => item.id === activity.id) ? current : [activity, ...current],
        );
      } else {
        reveal([activity]);
      }
    });
  }, [subscribe, sport, reveal]);

  const showWaiting = useCallback(() => {
    reveal(waiting);
    setWaiting([]);
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [reveal, waiting]);

  return { waitingCount: waiting.length, showWaiting, highlighted };
}
