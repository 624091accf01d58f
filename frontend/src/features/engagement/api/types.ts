import type { components } from '@/lib/api/schema';

export type Quests = components['schemas']['QuestsOut'];
export type Quest = components['schemas']['QuestOut'];
export type EngagementSettings = components['schemas']['EngagementSettingsOut'];
export type Referrals = components['schemas']['ReferralsOut'];
export type Streak = components['schemas']['StreakOut'];

/** One switch changed on its own, as each toggle saves. */
export type EngagementChange = { field: keyof EngagementSettings; value: boolean };
