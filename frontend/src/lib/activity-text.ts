import { formatDistance } from 'date-fns';

import type { components } from '@/lib/api/schema';

type Activity = components['schemas']['ActivityOut'];

function metadataText(activity: Activity, key: string): string | null {
  const value = activity.metadata[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** "Scout #{userId}": the feed names the author by number. */
export function activityAuthor(activity: Activity): string {
  return `Scout #${activity.userId}`;
}

/** What the author did, as the sentence after their name (the feed's and the wall's wording). */
export function activityText(activity: Activity): string {
  const playerName = metadataText(activity, 'playerName');
  const title = metadataText(activity, 'title');
  switch (activity.activityType) {
    case 'nomination_created':
      return playerName ? `nominated ${playerName}` : 'nominated a new player';
    case 'vote_cast':
      return playerName ? `voted for ${playerName}` : 'cast a vote';
    case 'player_update':
      if (title) return `posted an update: ${title}`;
      return playerName ? `posted an update on ${playerName}` : 'posted a player update';
    case 'follow': {
      const followed = playerName ?? metadataText(activity, 'userName');
      return followed ? `started following ${followed}` : 'followed someone new';
    }
    case 'player_claimed':
      return playerName ? `claimed the profile of ${playerName}` : 'claimed a player profile';
    default:
      return title ?? 'was active in the community';
  }
}

/** One line of the wall's ticker: the author's name, then what they did. */
export function activityLine(activity: Activity): string {
  return `${activity.user.name} ${activityText(activity)}`;
}

/** When an activity happened, relative to `now` ("about 2 hours ago"), as formatDistanceToNow says it. */
export function relativeTime(createdAt: string, now: Date = new Date()): string {
  const when = new Date(createdAt);
  // A clock slightly behind the server's must not say "in less than a minute".
  return formatDistance(when > now ? now : when, now, { addSuffix: true });
}
