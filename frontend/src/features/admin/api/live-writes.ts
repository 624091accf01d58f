import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';
import { currentVoteCounts } from '@/lib/live/vote-versions';

import {
  applyCommentCount,
  applyModerationChanged,
  applyNominationCreated,
  applyNominationRemoved,
  applyNominationUpdated,
  applyVoteChanged,
  refreshStats,
} from './admin-cache';
import { adminKeys } from './admin-keys';
import { applyClaimsChanged, type ClaimsChanged } from './claims';
import { applyCoachesChanged, type CoachesChanged } from './coaches';
import { applyCommentsReview } from './comments';
import { applyIntegrityFlag } from './integrity';
import { applyUpdateQueueChanged, type PlayerUpdateQueueChanged } from './player-updates';
import { prependModlogEntry, refreshReports } from './safety';
import type { ModerationChanged } from './types';

const ADMINS_GROUP = 'admins';

/**
 * What the live events write into the admin dashboard's reads: the pending queue, the decided
 * lists, the counts, the Reports, Log and Integrity tabs. Nomination events are taken from the
 * admins group only: the sport group repeats some of them (and sends a rejected nomination's
 * removal before the admins group has marked it). Only an admin's cache holds these reads;
 * for anyone else each write finds nothing to change.
 */
export const adminLiveWrites = {
  'moderation.changed': (queryClient, event, { viewerId }) => {
    applyModerationChanged(queryClient, event.data as ModerationChanged, viewerId);
  },
  'nomination.created': (queryClient, event) => {
    if (event.group === ADMINS_GROUP) applyNominationCreated(queryClient, event.data);
  },
  'nomination.updated': (queryClient, event) => {
    if (event.group === ADMINS_GROUP) applyNominationUpdated(queryClient, event.data);
  },
  'nomination.removed': (queryClient, event) => {
    if (event.group === ADMINS_GROUP) applyNominationRemoved(queryClient, event.data.id);
  },
  'vote.changed': (queryClient, event) => {
    for (const count of currentVoteCounts(queryClient, event.data.votes)) {
      applyVoteChanged(queryClient, count);
    }
  },
  'comment.created': (queryClient, event) => applyCommentCount(queryClient, event.data),
  'comment.removed': (queryClient, event) => applyCommentCount(queryClient, event.data),
  'report.created': (queryClient) => refreshReports(queryClient),
  'takedown.created': (queryClient) => refreshReports(queryClient),
  'takedown.confirmed': (queryClient) => {
    refreshReports(queryClient);
    // The player's nominations left the pending and approved counts.
    refreshStats(queryClient);
  },
  'modlog.created': (queryClient, event) => {
    prependModlogEntry(queryClient, event.data);
    // Another admin's resolution or decision closes items of the Reports tab.
    refreshReports(queryClient);
  },
  'integrity.flagged': (queryClient, event) => applyIntegrityFlag(queryClient, event.data),
  'claims.changed': (queryClient, event) =>
    applyClaimsChanged(queryClient, event.data as ClaimsChanged),
  'player_update_queue.changed': (queryClient, event) =>
    applyUpdateQueueChanged(queryClient, event.data as PlayerUpdateQueueChanged),
  'coaches.changed': (queryClient, event) =>
    applyCoachesChanged(queryClient, event.data as CoachesChanged),
  'comments.review': (queryClient, event) => applyCommentsReview(queryClient, event.data),
} satisfies LiveWrites;

/**
 * Every admin read, read again when the admins group's events were missed, or a sport's (its
 * votes move the counts in the queue and the lists). Only an admin's cache holds them.
 */
export const adminLiveRereads = {
  sport: [adminKeys.all],
  admins: [adminKeys.all],
} satisfies LiveRereads;
