import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { toast, type ToastInput } from '@/stores/toast';

import { settingsKeys } from './keys';
import type { NotificationSettings, SettingChange, Settings } from './types';

type Group = { saved: ToastInput; failed: string };

const notifications: Group = {
  saved: {
    title: 'Settings Updated',
    description: 'Your notification preferences have been saved.',
  },
  failed: 'Failed to update notification settings',
};

const privacy: Group = {
  saved: {
    title: 'Privacy Settings Updated',
    description: 'Your privacy preferences have been saved.',
  },
  failed: 'Failed to update privacy settings',
};

function groupOf(change: SettingChange): Group {
  return change.field === 'profileVisibility' || change.field === 'allowDiscoverability'
    ? privacy
    : notifications;
}

/** Saves one setting: the body carries that field alone. */
export function updateSetting(change: SettingChange): Promise<Settings> {
  switch (change.field) {
    case 'profileVisibility':
      return unwrap(
        api.PUT('/api/settings/privacy', { body: { profileVisibility: change.value } }),
      );
    case 'allowDiscoverability':
      return unwrap(
        api.PUT('/api/settings/privacy', { body: { allowDiscoverability: change.value } }),
      );
    default: {
      const body: NotificationSettings = { [change.field]: change.value };
      return unwrap(api.PUT('/api/settings/notifications', { body }));
    }
  }
}

function withValue(settings: Settings | undefined, change: SettingChange, value: unknown) {
  return settings ? { ...settings, [change.field]: value } : settings;
}

/**
 * Each toggle shows its new value at once and saves that one field. A failed save puts the old
 * value back, unless the user has changed that setting again since.
 */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...settingsKeys.all, 'update'],
    mutationFn: updateSetting,
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: settingsKeys.me() });
      const previous = queryClient.getQueryData<Settings>(settingsKeys.me())?.[change.field];
      queryClient.setQueryData<Settings>(settingsKeys.me(), (settings) =>
        withValue(settings, change, change.value),
      );
      return { previous };
    },
    onSuccess: (_saved, change) => {
      toast(groupOf(change).saved);
    },
    onError: (_error, change, context) => {
      queryClient.setQueryData<Settings>(settingsKeys.me(), (settings) =>
        settings && settings[change.field] === change.value && context?.previous !== undefined
          ? withValue(settings, change, context.previous)
          : settings,
      );
      toast({ variant: 'destructive', description: groupOf(change).failed });
    },
  });
}
