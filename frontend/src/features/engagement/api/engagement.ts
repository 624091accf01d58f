import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, ApiError, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { engagementKeys } from './keys';
import type { EngagementChange, EngagementSettings } from './types';

/**
 * The server answers 403 `adults_only` to anyone but an adult member (a teen account, one with
 * no year of birth, a claimant athlete, a player's account): the reads then hold nothing and
 * are not tried again (nor is any other refusal), and the screens show nothing of it.
 */
function adultsOnly(failures: number, error: Error) {
  return !(error instanceof ApiError && error.status < 500) && failures < 2;
}

export function useQuests(enabled: boolean) {
  return useQuery({
    queryKey: engagementKeys.quests(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/quests', { signal })),
    enabled,
    retry: adultsOnly,
  });
}

export function useEngagementSettings(enabled: boolean) {
  return useQuery({
    queryKey: engagementKeys.settings(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/settings/engagement', { signal })),
    enabled,
    retry: adultsOnly,
  });
}

export function useReferrals(enabled: boolean) {
  return useQuery({
    queryKey: engagementKeys.referrals(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/referrals', { signal })),
    enabled,
    retry: adultsOnly,
  });
}

/** A scout's streak, answered only when its adult shows it on their profile (404 otherwise). */
export function useProfileStreak(userId: number | null) {
  return useQuery({
    queryKey: engagementKeys.profileStreak(userId ?? 0),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/users/{user_id}/streak', {
          params: { path: { user_id: userId ?? 0 } },
          signal,
        }),
      ),
    enabled: userId !== null,
    retry: adultsOnly,
  });
}

export function updateEngagementSetting({ field, value }: EngagementChange) {
  const body = field === 'quests' ? { quests: value } : { showStreak: value };
  return unwrap(api.PUT('/api/settings/engagement', { body }));
}

/** Each switch shows its new value at once and saves that one field; a failure puts it back. */
export function useUpdateEngagementSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEngagementSetting,
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: engagementKeys.settings() });
      const previous = queryClient.getQueryData<EngagementSettings>(engagementKeys.settings());
      queryClient.setQueryData<EngagementSettings>(engagementKeys.settings(), (settings) =>
        settings ? { ...settings, [change.field]: change.value } : settings,
      );
      return { previous };
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(engagementKeys.settings(), saved);
      // Turning quests on or off changes what the dashboard's card shows.
      void queryClient.invalidateQueries({ queryKey: engagementKeys.quests() });
      toast({ title: 'Settings Updated', description: 'Your preferences have been saved.' });
    },
    onError: (_error, _change, context) => {
      if (context?.previous) {
        queryClient.setQueryData(engagementKeys.settings(), context.previous);
      }
      toast({ variant: 'destructive', description: 'Failed to update settings' });
    },
  });
}

/** Tells the server the member shared their own scout profile (the share_profile quest). */
export function useProfileShared() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/quests/share-profile')),
  });
}
