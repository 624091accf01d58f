import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { routes } from '@/app/router';
import { useToastStore } from '@/stores/toast';
import { mockFetch } from '@/testing/fetch-mock';
import { deliverLiveEvent, renderRoutes, scout } from '@/testing/render';

import type { Notification } from '../api/types';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const notification = (id: number, overrides: Partial<Notification> = {}): Notification => ({
  id,
  message: `Message ${id}`,
  type: 'vote_received',
  read: false,
  createdAt: minutesAgo(5),
  relatedNominationId: null,
  ...overrides,
});

function api() {
  return mockFetch({
    'GET /api/notifications': {
      body: {
        items: [
          notification(2, {
            type: 'nomination_approved',
            message: 'Your nomination of Sam Striker has been approved.',
            relatedNominationId: 7,
            createdAt: minutesAgo(120),
          }),
          notification(1, {
            type: 'new_follower',
            message: 'Ann started following you.',
            read: true,
          }),
        ],
        unreadCount: 1,
      },
    },
    'POST /api/notifications/read': { body: { unreadCount: 0 } },
  });
}

async function renderWithBell() {
  const rendered = renderRoutes(routes, { path: '/about', user: scout });
  const bell = await screen.findByRole(
    'button',
    { name: 'Notifications, 1 unread' },
    { timeout: 5000 },
  );
  return { ...rendered, bell };
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('notification bell', () => {
  it('shows the unread count and the newest notifications with relative times and links', async () => {
    api();
    const { bell } = await renderWithBell();
    expect(within(bell).getByText('1')).toBeInTheDocument();
    await userEvent.click(bell);
    const menu = await screen.findByRole('menu');
    const approved = within(menu).getByRole('menuitem', { name: /has been approved/ });
    expect(approved).toHaveAttribute('href', '/nominations/7');
    expect(approved).toHaveTextContent('about 2 hours ago');
    expect(within(menu).getByRole('menuitem', { name: /started following you/ })).toHaveTextContent(
      '5 minutes ago',
    );
  });

  it('marks one notification read when it is opened', async () => {
    const { requests } = api();
    const { bell, router } = await renderWithBell();
    await userEvent.click(bell);
    await userEvent.click(await screen.findByRole('menuitem', { name: /has been approved/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/nominations/7'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ ids: [2], all: false });
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('marks all read', async () => {
    const { requests } = api();
    const { bell } = await renderWithBell();
    await userEvent.click(bell);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mark all as read' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ all: true }),
    );
    await waitFor(() => expect(screen.queryByTestId('unread-count')).not.toBeInTheDocument());
    expect(
      within(screen.getByRole('menu')).queryByText('Mark all as read'),
    ).not.toBeInTheDocument();
  });

  it('takes notifications live: a toast, the count, and a re-sent one replaced in place', async () => {
    api();
    await renderWithBell();
    const push = (data: Notification) =>
      act(() => deliverLiveEvent({ type: 'notification.created', group: 'user.1', seq: 1, data }));
    push(notification(3, { message: 'Someone voted for Sam Striker.', relatedNominationId: 7 }));
    expect(
      await screen.findByRole('button', { name: 'Notifications, 2 unread' }),
    ).toBeInTheDocument();
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      title: 'New vote',
      description: 'Someone voted for Sam Striker.',
    });

    push(notification(3, { message: '3 people voted for Sam Striker.', relatedNominationId: 7 }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0].description).toBe(
        '3 people voted for Sam Striker.',
      ),
    );
    const bell = screen.getByRole('button', { name: 'Notifications, 2 unread' });
    await userEvent.click(bell);
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem', {
      name: /Striker|Ann/,
    });
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('3 people voted for Sam Striker.'),
      expect.stringContaining('has been approved'),
      expect.stringContaining('Ann started following you.'),
    ]);
  });
});
