import { adminLiveRereads, adminLiveWrites } from '@/features/admin/api/live-writes';
import { coachLiveRereads, coachLiveWrites } from '@/features/coaches/api/live-writes';
import { commentLiveRereads, commentLiveWrites } from '@/features/comments/api/live-writes';
import { clubLiveRereads, clubLiveWrites } from '@/features/clubs/api/live-writes';
import { engagementLiveRereads, engagementLiveWrites } from '@/features/engagement/api/live-writes';
import {
  nominationLiveRereads,
  nominationLiveWrites,
} from '@/features/nominations/api/live-writes';
import {
  notificationLiveRereads,
  notificationLiveWrites,
} from '@/features/notifications/api/live-writes';
import { profileLiveRereads, profileLiveWrites } from '@/features/profile/api/live-writes';
import { socialLiveRereads, socialLiveWrites } from '@/features/social/api/live-writes';
import { updateLiveRereads, updateLiveWrites } from '@/features/updates/api/live-writes';
import { wallLiveRereads, wallLiveWrites } from '@/features/wall/api/live-writes';
import type { LiveReducerTable, LiveRereadTable } from '@/lib/live/reducers';

/**
 * Every live event type with the cache writes of each feature that handles it, in the order
 * they run. The event types are generated from the server's schema: a new one fails the type
 * check here until someone decides who handles it (an empty list says no cache holds it).
 * Effects outside the cache (toasts, the wall's animations, the announcer, timers) listen on
 * the live bus, which hears each event after these writes.
 */
export const liveReducers = {
  'vote.changed': [
    nominationLiveWrites['vote.changed'],
    adminLiveWrites['vote.changed'],
    clubLiveWrites['vote.changed'],
  ],
  'vote.own': [nominationLiveWrites['vote.own']],
  'follow.own': [
    nominationLiveWrites['follow.own'],
    socialLiveWrites['follow.own'],
    clubLiveWrites['follow.own'],
  ],
  'nomination.created': [
    nominationLiveWrites['nomination.created'],
    adminLiveWrites['nomination.created'],
  ],
  'nomination.updated': [
    nominationLiveWrites['nomination.updated'],
    adminLiveWrites['nomination.updated'],
    clubLiveWrites['nomination.updated'],
  ],
  'nomination.removed': [
    nominationLiveWrites['nomination.removed'],
    socialLiveWrites['nomination.removed'],
    wallLiveWrites['nomination.removed'],
    adminLiveWrites['nomination.removed'],
    clubLiveWrites['nomination.removed'],
  ],
  'leaderboard.changed': [
    nominationLiveWrites['leaderboard.changed'],
    wallLiveWrites['leaderboard.changed'],
  ],
  'stats.changed': [nominationLiveWrites['stats.changed']],
  'activity.created': [
    socialLiveWrites['activity.created'],
    wallLiveWrites['activity.created'],
    clubLiveWrites['activity.created'],
  ],
  // The live session hands a batch on as the activity.created of each of its items.
  'activity.batch': [],
  'notification.created': [notificationLiveWrites['notification.created']],
  'profile.changed': [profileLiveWrites['profile.changed']],
  'moderation.changed': [adminLiveWrites['moderation.changed']],
  'report.created': [adminLiveWrites['report.created']],
  'takedown.created': [adminLiveWrites['takedown.created']],
  'takedown.confirmed': [adminLiveWrites['takedown.confirmed']],
  'modlog.created': [adminLiveWrites['modlog.created']],
  'integrity.flagged': [adminLiveWrites['integrity.flagged']],
  'claims.changed': [adminLiveWrites['claims.changed']],
  'player_update.changed': [updateLiveWrites['player_update.changed']],
  'player_update_queue.changed': [adminLiveWrites['player_update_queue.changed']],
  'coaches.changed': [adminLiveWrites['coaches.changed'], coachLiveWrites['coaches.changed']],
  'endorsements.changed': [coachLiveWrites['endorsements.changed']],
  'comment.created': [
    nominationLiveWrites['comment.created'],
    adminLiveWrites['comment.created'],
    commentLiveWrites['comment.created'],
  ],
  'comment.removed': [
    nominationLiveWrites['comment.removed'],
    adminLiveWrites['comment.removed'],
    commentLiveWrites['comment.removed'],
  ],
  'comments.review': [adminLiveWrites['comments.review']],
  'quest.progress': [engagementLiveWrites['quest.progress']],
} satisfies LiveReducerTable;

/**
 * What is read again when a group is joined without its events (its first subscription, a
 * sequence that started over, the server's resync, a 4001 close), per kind of group: the reads
 * of every feature its events write.
 */
export const liveRereads = {
  sport: [
    ...nominationLiveRereads.sport,
    ...socialLiveRereads.sport,
    ...wallLiveRereads.sport,
    ...adminLiveRereads.sport,
    ...updateLiveRereads.sport,
    ...coachLiveRereads.sport,
    ...commentLiveRereads.sport,
    ...clubLiveRereads.sport,
  ],
  user: [
    ...nominationLiveRereads.user,
    ...socialLiveRereads.user,
    ...profileLiveRereads.user,
    ...notificationLiveRereads.user,
    ...updateLiveRereads.user,
    ...coachLiveRereads.user,
    ...commentLiveRereads.user,
    ...clubLiveRereads.user,
    ...engagementLiveRereads.user,
  ],
  admins: [
    ...adminLiveRereads.admins,
    ...updateLiveRereads.admins,
    ...coachLiveRereads.admins,
    ...commentLiveRereads.admins,
  ],
} satisfies LiveRereadTable;
