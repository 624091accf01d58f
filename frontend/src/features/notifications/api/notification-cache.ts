import { NOTIFICATIONS_SHOWN } from './get-notifications';
import type { Notification, Notifications } from './types';

/**
 * A notification pushed live goes on top. One already shown (a vote_received the server
 * coalesced into the same row) is replaced and moves up; the unread count changes only when the
 * notification's own read state does. The list stays at the size the bell shows.
 */
export function receiveNotification(
  data: Notifications | undefined,
  notification: Notification,
): Notifications | undefined {
  if (!data) return data;
  const previous = data.items.find((item) => item.id === notification.id);
  const wasUnread = previous ? !previous.read : false;
  const delta = (notification.read ? 0 : 1) - (wasUnread ? 1 : 0);
  const others = data.items.filter((item) => item.id !== notification.id);
  return {
    items: [notification, ...others].slice(0, NOTIFICATIONS_SHOWN),
    unreadCount: Math.max(0, data.unreadCount + delta),
  };
}

/** Notifications marked read: `ids`, or every one when `ids` is 'all'. */
export function markRead(
  data: Notifications | undefined,
  ids: number[] | 'all',
  unreadCount?: number,
): Notifications | undefined {
  if (!data) return data;
  const matches = (item: Notification) => ids === 'all' || ids.includes(item.id);
  const newlyRead = data.items.filter((item) => !item.read && matches(item)).length;
  return {
    items: data.items.map((item) => (!item.read && matches(item) ? { ...item, read: true } : item)),
    unreadCount: unreadCount ?? Math.max(0, data.unreadCount - newlyRead),
  };
}
