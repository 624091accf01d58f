import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { notificationKeys } from './notification-keys';
import type { Notifications } from './types';

/** The bell shows this many, newest first; the unread count covers them all. */
export const NOTIFICATIONS_SHOWN = 20;

/** GET /api/notifications: the newest notifications and the unread count. */
export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) =>
      api.get<Notifications>('/api/notifications', {
        params: { limit: NOTIFICATIONS_SHOWN },
        signal,
      }),
  });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
