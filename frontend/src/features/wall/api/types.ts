import type { components } from '@/lib/api/schema';

/** A nomination on the wall; leaderboard events carry it without the reader's hasVoted. */
export type WallPlayer = Omit<components['schemas']['NominationOut'], 'hasVoted'>;
export type WallScout = components['schemas']['ScoutRankOut'];
export type WallActivity = components['schemas']['ActivityOut'];
/** A board entry on the wall: a nomination with its place (rank, score, movement). */
export type WallEntry = WallPlayer &
  Partial<Pick<components['schemas']['BoardEntryOut'], 'rank' | 'score' | 'movement'>>;
/** The week the weekly board counts and when it starts again from zero. */
export type WallWeek = Pick<components['schemas']['WeekOut'], 'week' | 'resetsAt'>;
