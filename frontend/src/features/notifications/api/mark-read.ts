import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { markRead } from './notification-cache';
import { notificationKeys } from './notification-keys';
import type { Notifications } from './types';

export type MarkReadInput = { ids: number[] } | { all: true };

export function markNotificationsRead(input: MarkReadInput) {
  // The schema's `all` defaults to false, so the generated body type requires it.
  const body = 'all' in input ? { all: true } : { ids: input.ids, all: false };
  return unwrap(api.POST('/api/notifications/read', { body }));
}

const idsOf = (input: MarkReadInput) => ('all' in input ? 'all' : input.ids);

/**
 * Marks one, several or all notifications read: at once on screen, then with the server's
 * unread count; a failure reads the list again.
 */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  const key = notificationKeys.list();
  return useMutation({
    mutationFn: markNotificationsRead,
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<Notifications>(key, (data) => markRead(data, idsOf(input)));
    },
    onSuccess: ({ unreadCount }, input) => {
      queryClient.setQueryData<Notifications>(key, (data) =>
        markRead(data, idsOf(input), unreadCount),
      );
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}
