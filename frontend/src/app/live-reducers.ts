import { adminLiveWrites } from '@/features/admin/api/live-writes';
import { nominationLiveWrites } from '@/features/nominations/api/live-writes';
import { notificationLiveWrites } from '@/features/notifications/api/live-writes';
import { profileLiveWrites } from '@/features/profile/api/live-writes';
import { socialLiveWrites } from '@/features/social/api/live-writes';
import { wallLiveWrites } from '@/features/wall/api/live-writes';
import type { LiveReducerTable } from '@/lib/live/reducers';

/**
 * Every live event type with the cache writes of each feature that handles it, in the order
 * they run. The event types are generated from the server's schema: a new one fails the type
 * check here until someone decides who handles it (an empty list says no cache holds it).
 * Effects outside the cache (toasts, the wall's animations, the announcer, timers) listen on
 * the live bus, which hears each event after these writes.
 */
export const liveReducers = {
  'vote.changed': [nominationLiveWrites['vote.changed'], adminLiveWrites['vote.changed']],
  'vote.own': [nominationLiveWrites['vote.own']],
  'follow.own': [nominationLiveWrites['follow.own'], socialLiveWrites['follow.own']],
  'nomination.created': [
    nominationLiveWrites['nomination.created'],
    adminLiveWrites['nomination.created'],
  ],
  'nomination.updated': [
    nominationLiveWrites['nomination.updated'],
    adminLiveWrites['nomination.updated'],
  ],
  'nomination.removed': [
    nominationLiveWrites['nomination.removed'],
    socialLiveWrites['nomination.removed'],
    wallLiveWrites['nomination.removed'],
    adminLiveWrites['nomination.removed'],
  ],
  'leaderboard.changed': [
    nominationLiveWrites['leaderboard.changed'],
    wallLiveWrites['leaderboard.changed'],
  ],
  'stats.changed': [nominationLiveWrites['stats.changed']],
  'activity.created': [socialLiveWrites['activity.created'], wallLiveWrites['activity.created']],
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
} satisfies LiveReducerTable;
