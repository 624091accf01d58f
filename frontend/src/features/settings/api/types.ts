import type { components } from '@/lib/api/schema';

export type Settings = components['schemas']['SettingsOut'];
export type NotificationSettings = components['schemas']['NotificationSettingsIn'];

export const PROFILE_VISIBILITIES = ['public', 'followers', 'private'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];

/**
 * emailNotifications, voteNotifications, nominationNotifications (in the app and on devices),
 * voteEmails, nominationEmails (by email), weeklyDigest.
 */
export type NotificationField = keyof NotificationSettings;

/** One setting changed on its own, as each toggle saves. */
export type SettingChange =
  | { field: NotificationField; value: boolean }
  | { field: 'allowDiscoverability'; value: boolean }
  | { field: 'profileVisibility'; value: ProfileVisibility };
