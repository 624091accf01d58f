import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';

import { receiveNotification } from './notification-cache';
import { notificationKeys } from './notification-keys';
import type { Notifications } from './types';

/** What the live events write into the bell's list (its toast listens on the live bus). */
export const notificationLiveWrites = {
  'notification.created': (queryClient, event) => {
    queryClient.setQueryData<Notifications>(notificationKeys.list(), (list) =>
      receiveNotification(list, event.data),
    );
  },
} satisfies LiveWrites;

/** The bell's list, read again when the reader's user group's events were missed. */
export const notificationLiveRereads = { user: [notificationKeys.list()] } satisfies LiveRereads;
