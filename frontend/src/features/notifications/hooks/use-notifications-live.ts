import { useEffect } from 'react';

import { subscribeLiveEvents } from '@/lib/live/event-bus';
import { toast } from '@/stores/toast';

import { notificationTitle } from '../components/notification-kinds';

/**
 * New notifications show as a toast as they are created (the live write has put them in the
 * bell's list, and the app's table reads the list again when the user group's events were
 * missed).
 */
export function useNotificationsLive() {
  useEffect(
    () =>
      subscribeLiveEvents('notification.created', ({ data }) => {
        toast({ title: notificationTitle(data.type), description: data.message });
      }),
    [],
  );
}
