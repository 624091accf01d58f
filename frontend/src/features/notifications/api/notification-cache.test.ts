import { describe, expect, it } from 'vitest';

import { NOTIFICATIONS_SHOWN } from './get-notifications';
import { markRead, receiveNotification } from './notification-cache';
import type { Notification, Notifications } from './types';

const notification = (id: number, overrides: Partial<Notification> = {}): Notification => ({
  id,
  message: `Message ${id}`,
  type: 'vote_received',
  read: false,
  createdAt: '2025-01-01T10:00:00Z',
  relatedNominationId: 4,
  ...overrides,
});

const ids = (data: Notifications | undefined) => data?.items.map((item) => item.id);

describe('notification cache', () => {
  const start: Notifications = {
    items: [notification(3), notification(2, { read: true }), notification(1)],
    unreadCount: 2,
  };

  it('puts a new notification on top and counts it unread', () => {
    const next = receiveNotification(start, notification(4));
    expect(ids(next)).toEqual([4, 3, 2, 1]);
    expect(next?.unreadCount).toBe(3);
  });

  it('replaces a re-sent notification by id and moves it to the top without counting it twice', () => {
    const next = receiveNotification(start, notification(1, { message: 'You have 3 new votes' }));
    expect(ids(next)).toEqual([1, 3, 2]);
    expect(next?.items[0].message).toBe('You have 3 new votes');
    expect(next?.unreadCount).toBe(2);
  });

  it('counts a read notification that comes back unread', () => {
    expect(receiveNotification(start, notification(2))?.unreadCount).toBe(3);
  });

  it('stays at the size the bell shows after 10,000 notifications', () => {
    let data: Notifications | undefined = { items: [], unreadCount: 0 };
    for (let id = 1; id <= 10_000; id += 1) {
      data = receiveNotification(data, notification(id));
    }
    expect(data?.items).toHaveLength(NOTIFICATIONS_SHOWN);
    expect(data?.items[0].id).toBe(10_000);
    expect(data?.unreadCount).toBe(10_000);
  });

  it('marks one or all read, taking the server count when it has one', () => {
    expect(markRead(start, [3])).toMatchObject({ unreadCount: 1 });
    expect(markRead(start, [3])?.items[0].read).toBe(true);
    expect(markRead(start, [2])?.unreadCount).toBe(2);
    const all = markRead(start, 'all', 0);
    expect(all?.items.every((item) => item.read)).toBe(true);
    expect(all?.unreadCount).toBe(0);
    expect(markRead(start, [3], 5)?.unreadCount).toBe(5);
  });
});
