import { useEffect } from 'react';
import { create } from 'zustand';

import type { PresenceCount, ReviewMark } from './protocol';

type PresenceState = {
  /** `${scope}:${id}` -> how many watch it, as last told by the server. */
  counts: Record<string, number>;
  /** Admins: which nominations other admins have open. */
  reviews: ReviewMark[];
  /** The nomination whose page is open in this tab, announced to the server. */
  watching: number | null;
  setCount: (count: PresenceCount) => void;
  setReviews: (reviews: ReviewMark[]) => void;
  setWatching: (nominationId: number | null) => void;
  /** The socket closed: the counts it told are no longer kept current. */
  clear: () => void;
};

export const usePresenceStore = create<PresenceState>()((set) => ({
  counts: {},
  reviews: [],
  watching: null,
  setCount: ({ scope, id, watching }) =>
    set((state) => ({ counts: { ...state.counts, [`${scope}:${id}`]: watching } })),
  setReviews: (reviews) => set({ reviews }),
  setWatching: (watching) => set({ watching }),
  clear: () => set({ counts: {}, reviews: [] }),
}));

/** How many watch a nomination or a sport right now; undefined until the server says. */
export function useWatching(scope: PresenceCount['scope'], id: number | string) {
  return usePresenceStore((state) => state.counts[`${scope}:${id}`]);
}

/** Marks the nomination as open in this tab (counted by "N watching") while mounted. */
export function useWatchNomination(nominationId: number | null | undefined) {
  const setWatching = usePresenceStore((state) => state.setWatching);
  useEffect(() => {
    if (nominationId === null || nominationId === undefined) return;
    setWatching(nominationId);
    return () => setWatching(null);
  }, [nominationId, setWatching]);
}

/** Admins: the name of another admin reviewing the nomination, if any. */
export function useReviewer(nominationId: number): string | undefined {
  return usePresenceStore(
    (state) => state.reviews.find((mark) => mark.nominationId === nominationId)?.name,
  );
}

/** "N watching", the words every screen shows. */
export function watchingLabel(count: number) {
  return `${count} watching`;
}
