import type { components } from '@/lib/api/schema';

export type Settings = components['schemas']['SettingsOut'];

export const PROFILE_VISIBILITIES = ['public', 'followers', 'private'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];

export type NotificationField =
  'emailNotifications' | 'voteNotifications' | 'nominationNotifications';

/** One setting changed on its own, as each toggle saves. */
export type SettingChange =
  | { field: NotificationField; value: boolean }
  | { field: 'allowDiscoverability'; value: boolean }
  | { field: 'profileVisibility'; value: ProfileVisibility };
