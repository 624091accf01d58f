import type { components } from '@/lib/api/schema';

/** A nomination as the REST calls return it (with hasVoted for the current user). */
export type Nomination = components['schemas']['NominationOut'];
/** The nomination read shape as live events push it: hasVoted depends on who reads it. */
export type NominationEvent = Omit<Nomination, 'hasVoted'>;
export type Player = components['schemas']['PlayerOut'];
export type ScoutRank = components['schemas']['ScoutRankOut'];
export type Stats = components['schemas']['StatsOut'];
export type VoteState = components['schemas']['VoteOut'];
export type DuplicateNomination = components['schemas']['DuplicateNominationOut'];
/** Player of the Week: a past week's top 3 of one sport. */
export type WeekWinners = components['schemas']['WeekWinnersOut'];
