import { useCallback, useEffect, useRef, useState } from 'react';

/** A region speaks at most once in this many milliseconds; later news waits, newest wins. */
export const ANNOUNCE_INTERVAL_MS = 10_000;

/**
 * A throttled message for one polite live region: the first announcement is shown at once, the
 * ones that come within the interval after it are held, and only the newest of them is shown
 * when the interval ends.
 */
export function useThrottledAnnouncement(intervalMs: number = ANNOUNCE_INTERVAL_MS) {
  const [message, setMessage] = useState('');
  const lastShown = useRef<number | null>(null);
  const pending = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const announce = useCallback(
    (text: string) => {
      const now = Date.now();
      const show = (next: string) => {
        lastShown.current = Date.now();
        setMessage(next);
      };
      if (lastShown.current === null || now - lastShown.current >= intervalMs) {
        show(text);
        return;
      }
      pending.current = text;
      if (timer.current !== null) return;
      timer.current = setTimeout(
        () => {
          timer.current = null;
          const next = pending.current;
          pending.current = null;
          if (next !== null) show(next);
        },
        intervalMs - (now - lastShown.current),
      );
    },
    [intervalMs],
  );

  return { message, announce };
}

export const voteCountMessage = (name: string, count: number) =>
  `${name} now has ${count} ${count === 1 ? 'vote' : 'votes'}`;

type Counted = { id: number; voteCount: number; player: { name: string } };

/**
 * Announces, through one throttled polite region, each vote count that changes after the first
 * render ("Quinn Archer now has 12 votes"); a nomination seen for the first time says nothing.
 * Render the returned message once, in a `LiveRegion`.
 */
export function useVoteCountAnnouncements(nominations: readonly Counted[]) {
  const { message, announce } = useThrottledAnnouncement();
  const seen = useRef(new Map<number, number>());

  useEffect(() => {
    let changed: Counted | null = null;
    for (const nomination of nominations) {
      const before = seen.current.get(nomination.id);
      if (before !== undefined && before !== nomination.voteCount) changed = nomination;
      seen.current.set(nomination.id, nomination.voteCount);
    }
    if (changed) announce(voteCountMessage(changed.player.name, changed.voteCount));
  }, [nominations, announce]);

  return message;
}
