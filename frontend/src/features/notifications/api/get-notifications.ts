import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { notificationKeys } from './notification-keys';

/** The bell shows this many, newest first; the unread count covers them all. */
export const NOTIFICATIONS_SHOWN = 20;

/** GET /api/notifications: the newest notifications and the unread count. */
export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/notifications', {
          params: { query: { limit: NOTIFICATIONS_SHOWN } },
          signal,
        }),
      ),
  });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
