import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { subscribeLiveEvents, subscribeLiveResync } from '@/lib/live/event-bus';
import { currentVoteCounts } from '@/lib/live/vote-versions';

import {
  applyModerationChanged,
  applyNominationCreated,
  applyNominationRemoved,
  applyNominationUpdated,
  applyVoteChanged,
  refreshAdmin,
  refreshStats,
  removeAllDecided,
  removeDecided,
} from '../api/admin-cache';
import { applyClaimsChanged, type ClaimsChanged } from '../api/claims';
import { applyIntegrityFlag } from '../api/integrity';
import { prependModlogEntry, refreshReports } from '../api/safety';
import type { ModerationChanged } from '../api/types';

/** How long an item another admin decided stays in the queue, greyed, with its mark. */
export const DECIDED_MARK_MS = 4000;

/**
 * Votes carry no admin totals: the stats are read again at most this often while votes come in
 * (those of the sport the admin's socket follows).
 */
const VOTE_STATS_REFRESH_MS = 2000;

const ADMINS_GROUP = 'admins';

/**
 * Keeps the dashboard live: new nominations join the queue, decisions by other admins mark
 * and then drop items, counts follow the events, and a resync reads everything again. Nomination
 * events are taken from the admins group only: the sport group repeats some of them (and sends
 * a rejected nomination's removal before the admins group has marked it).
 */
export function useAdminLive(viewerId: number | undefined) {
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

    const unsubscribe = [
      subscribeLiveEvents('moderation.changed', ({ data }) =>
        applyModerationChanged(queryClient, data as ModerationChanged, viewerId, removeLater),
      ),
      subscribeLiveEvents('nomination.created', ({ group, data }) => {
        if (group === ADMINS_GROUP) applyNominationCreated(queryClient, data);
      }),
      subscribeLiveEvents('nomination.updated', ({ group, data }) => {
        if (group === ADMINS_GROUP) applyNominationUpdated(queryClient, data);
      }),
      subscribeLiveEvents('nomination.removed', ({ group, data }) => {
        if (group === ADMINS_GROUP) applyNominationRemoved(queryClient, data.id);
      }),
      subscribeLiveEvents('vote.changed', ({ data }) => {
        for (const { nominationId, voteCount } of currentVoteCounts(queryClient, data.votes)) {
          applyVoteChanged(queryClient, nominationId, voteCount);
        }
        refreshStatsSoon();
      }),
      subscribeLiveEvents('report.created', () => refreshReports(queryClient)),
      subscribeLiveEvents('takedown.created', () => refreshReports(queryClient)),
      subscribeLiveEvents('takedown.confirmed', () => {
        refreshReports(queryClient);
        // The player's nominations left the pending and approved counts.
        refreshStats(queryClient);
      }),
      subscribeLiveEvents('modlog.created', ({ data }) => {
        prependModlogEntry(queryClient, data);
        // Another admin's resolution or decision closes items of the Reports tab.
        refreshReports(queryClient);
      }),
      subscribeLiveEvents('integrity.flagged', ({ data }) => applyIntegrityFlag(queryClient, data)),
      subscribeLiveEvents('claims.changed', ({ data }) =>
        applyClaimsChanged(queryClient, data as ClaimsChanged),
      ),
      subscribeLiveResync(() => refreshAdmin(queryClient)),
    ];

    return () => {
      for (const stop of unsubscribe) stop();
      for (const timer of timers.values()) clearTimeout(timer);
      clearTimeout(statsTimer);
      // Marks without their timers would stay forever: the queue is shown without them.
      removeAllDecided(queryClient);
    };
  }, [queryClient, viewerId]);
}
