import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { subscribeLiveEvents, subscribeLiveResync } from '@/lib/live/event-bus';
import { toast } from '@/stores/toast';

import { receiveNotification } from '../api/notification-cache';
import { notificationKeys } from '../api/notification-keys';
import type { Notifications } from '../api/types';
import { notificationTitle } from '../components/notification-kinds';

/**
 * New notifications join the bell and show as a toast as they are created; after a resync of
 * the user's group the list is read again.
 */
export function useNotificationsLive() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const key = notificationKeys.list();
    const stopEvents = subscribeLiveEvents('notification.created', ({ data }) => {
      queryClient.setQueryData<Notifications>(key, (list) => receiveNotification(list, data));
      toast({ title: notificationTitle(data.type), description: data.message });
    });
    const stopResync = subscribeLiveResync((groups) => {
      if (groups.some((group) => group.startsWith('user.'))) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    });
    return () => {
      stopEvents();
      stopResync();
    };
  }, [queryClient]);
}
