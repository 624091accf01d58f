import type { components } from '@/lib/api/schema';

export type Activity = components['schemas']['ActivityOut'];
export type ScoutCard = components['schemas']['ScoutCardOut'];
export type Scout = components['schemas']['ScoutOut'];
export type FollowStatus = components['schemas']['FollowStatusOut'];
export type Following = components['schemas']['FollowingOut'];
export type ScoutNomination = components['schemas']['NominationOut'];
