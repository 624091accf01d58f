import type { WallActivity } from '../api/types';

function subject(activity: WallActivity): string {
  const { playerName, userName } = activity.metadata;
  if (typeof playerName === 'string' && playerName) return playerName;
  if (typeof userName === 'string' && userName) return userName;
  return 'a player';
}

/** One line of the ticker: who did what. */
export function activityText(activity: WallActivity): string {
  const who = activity.user.name;
  switch (activity.activityType) {
    case 'nomination_created':
      return `${who} nominated ${subject(activity)}`;
    case 'vote_cast':
      return `${who} voted for ${subject(activity)}`;
    case 'follow':
      return `${who} followed ${subject(activity)}`;
    case 'player_update':
      return `${who} updated ${subject(activity)}`;
    case 'player_claimed':
      return `${who} claimed ${subject(activity)}`;
    default:
      return `${who} was active`;
  }
}
