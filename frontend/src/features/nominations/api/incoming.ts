import { hashKey, type QueryKey } from '@tanstack/react-query';
import { create } from 'zustand';

import type { Nomination } from './types';

type IncomingState = {
  /** Per list (by its hashed query key), nominations pushed live and not yet shown, newest first. */
  byList: Record<string, Nomination[]>;
};

/**
 * New nominations held back from a long list until its reader is at the top or asks for them,
 * so arriving items never shift what someone is reading.
 */
export const useIncomingStore = create<IncomingState>()(() => ({ byList: {} }));

const NONE: Nomination[] = [];

export function queueIncoming(listKey: QueryKey, nomination: Nomination) {
  const id = hashKey(listKey);
  useIncomingStore.setState(({ byList }) => {
    const queued = byList[id] ?? NONE;
    if (queued.some((item) => item.id === nomination.id)) return { byList };
    return { byList: { ...byList, [id]: [nomination, ...queued] } };
  });
}

/**
 * Rewrites the waiting nominations like the cached ones (a vote count, an edit), so a list shows
 * them current when they come in; null drops one.
 */
export function mapIncoming(map: (nomination: Nomination) => Nomination | null) {
  const { byList } = useIncomingStore.getState();
  let changed = false;
  const next: Record<string, Nomination[]> = {};
  for (const [id, queued] of Object.entries(byList)) {
    const kept: Nomination[] = [];
    for (const item of queued) {
      const mapped = map(item);
      if (mapped !== item) changed = true;
      if (mapped) kept.push(mapped);
    }
    if (kept.length > 0) next[id] = kept;
  }
  if (changed) useIncomingStore.setState({ byList: next });
}

/** Takes the nominations waiting for a list, leaving it empty. */
export function takeIncoming(listKey: QueryKey): Nomination[] {
  const id = hashKey(listKey);
  const queued = useIncomingStore.getState().byList[id] ?? NONE;
  if (queued.length > 0) {
    useIncomingStore.setState(({ byList }) => {
      const next = { ...byList };
      delete next[id];
      return { byList: next };
    });
  }
  return queued;
}

export function useIncoming(listKey: QueryKey): Nomination[] {
  const id = hashKey(listKey);
  return useIncomingStore((state) => state.byList[id] ?? NONE);
}
