import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { subscribeLiveEvents, subscribeLiveResync } from '@/lib/live/event-bus';
import { toast } from '@/stores/toast';

import { notificationKeys } from '../api/notification-keys';
import { notificationTitle } from '../components/notification-kinds';

/**
 * New notifications show as a toast as they are created (the live write has put them in the
 * bell's list); after a resync of the user's group the list is read again.
 */
export function useNotificationsLive() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const key = notificationKeys.list();
    const stopEvents = subscribeLiveEvents('notification.created', ({ data }) => {
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
