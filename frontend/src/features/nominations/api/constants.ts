import { BOARD_SIZE } from '@/lib/ranks';

/** A nomination needs votes while it has fewer than this many. */
export const NEEDS_VOTES_BELOW = 5;
/** How many recent nominations the dashboard shows (the server's default). */
export const RECENT_NOMINATIONS = 6;
/** How many entries each leaderboard shows. */
export const LEADERBOARD_SIZE = BOARD_SIZE;
