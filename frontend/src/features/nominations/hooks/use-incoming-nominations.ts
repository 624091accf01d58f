import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';

import { takeIncoming, useIncoming } from '../api/incoming';
import { prependToFirstPage } from '../api/nomination-cache';
import type { PagedData } from '../api/paged';
import type { Nomination } from '../api/types';

import { useScrolledPast } from './use-scrolled-past';

/** Below this scroll offset the reader is at the top and new nominations come in at once. */
const TOP_OFFSET = 160;

/**
 * Nominations pushed live for a paged list. At the top of the page they join the list at once;
 * further down they wait behind an "N new" pill, so the cards being read never move.
 */
export function useIncomingNominations(listKey: QueryKey, shown: Nomination[]) {
  const queryClient = useQueryClient();
  const incoming = useIncoming(listKey);
  const scrolled = useScrolledPast(TOP_OFFSET);
  const waiting = useMemo(() => {
    const present = new Set(shown.map((nomination) => nomination.id));
    return incoming.filter((nomination) => !present.has(nomination.id));
  }, [incoming, shown]);

  const bringIn = useCallback(() => {
    const arrived = takeIncoming(listKey);
    queryClient.setQueryData<PagedData<Nomination>>(
      listKey,
      (data) => data && prependToFirstPage(data, arrived),
    );
  }, [queryClient, listKey]);

  useEffect(() => {
    if (!scrolled && incoming.length > 0) bringIn();
  }, [scrolled, incoming, bringIn]);

  const showNew = useCallback(() => {
    bringIn();
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [bringIn]);

  return { newCount: waiting.length, showNew };
}
