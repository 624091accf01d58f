import type { WallActivity } from './types';

/** The ticker keeps this many activities, however long the wall runs. */
export const TICKER_SIZE = 20;

/** A new activity in front; an id already held is not repeated; the oldest fall off. */
export function pushActivity(
  activities: WallActivity[] | undefined,
  activity: WallActivity,
  size = TICKER_SIZE,
): WallActivity[] {
  const rest = (activities ?? []).filter((item) => item.id !== activity.id);
  return [activity, ...rest].slice(0, size);
}
