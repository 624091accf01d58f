import type { components } from '@/lib/api/schema';

export type Club = components['schemas']['ClubOut'];
export type ClubNomination = components['schemas']['ClubNominationOut'];
export type ClubSuggestion = components['schemas']['ClubSuggestionOut'];
export type ClubRef = components['schemas']['ClubRefOut'];
export type FollowStatus = components['schemas']['FollowStatusOut'];
