import type { components } from '@/lib/api/schema';

/** A nomination on the wall; leaderboard events carry it without the reader's hasVoted. */
export type WallPlayer = Omit<components['schemas']['NominationOut'], 'hasVoted'>;
export type WallScout = components['schemas']['ScoutRankOut'];
export type WallActivity = components['schemas']['ActivityOut'];
