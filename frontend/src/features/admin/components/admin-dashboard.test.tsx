import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { routes } from '@/app/router';
import type { LiveEvent } from '@/lib/live/protocol';
import { mockFetch, type MockResponse, type RecordedRequest } from '@/testing/fetch-mock';
import { makeNomination } from '@/testing/nomination-factory';
import { admin, deliverLiveEvent, renderRoutes } from '@/testing/render';
import { useToastStore } from '@/stores/toast';

import { DECIDED_MARK_MS } from '../hooks/use-admin-live';

const stats = {
  pendingNominations: 2,
  approvedNominations: 5,
  rejectedNominations: 1,
  totalVotes: 42,
  activeScouts: 7,
  totalNominations: 8,
};

const users = [
  {
    id: admin.id,
    name: admin.name,
    username: admin.username,
    email: 'ada@x.io',
    role: 'admin',
    points: 3,
  },
  { id: 11, name: 'Sam Scout', username: 'sam', email: 'sam@x.io', role: 'scout', points: 40 },
];

const bob = { id: 8, name: 'Bob Boss', username: 'bob' };

function api(
  overrides: Record<string, MockResponse | ((request: RecordedRequest) => MockResponse)> = {},
) {
  return mockFetch({
    'GET /api/admin/stats': { body: stats },
    'GET /api/admin/nominations/pending': { body: [makeNomination(2), makeNomination(1)] },
    'GET /api/admin/users': { body: users },
    'GET /api/admin/leaderboard': {
      body: [{ id: 11, name: 'Sam Scout', username: 'sam', points: 40 }],
    },
    'GET /api/nominations': (request) => {
      const status = new URL(request.url, 'http://x').searchParams.get('status');
      return { body: status === 'approved' ? [makeNomination(5, { status: 'approved' })] : [] };
    },
    ...overrides,
  });
}

const lastToast = () => useToastStore.getState().toasts[0];
const row = (name: string) => screen.getByRole('listitem', { name });
async function renderDashboard(path = '/admin/dashboard') {
  const rendered = renderRoutes(routes, { path, user: admin });
  // The page is a lazy chunk: its first import in a test file takes a while.
  await screen.findByRole('heading', { name: 'Admin Dashboard' }, { timeout: 5000 });
  return rendered;
}

function live<T extends LiveEvent['type']>(
  type: T,
  data: Extract<LiveEvent, { type: T }>['data'],
  group = 'admins',
) {
  act(() => deliverLiveEvent({ type, group, seq: 1, data } as LiveEvent));
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('admin dashboard', () => {
  it('shows the six stat cards and the tabs with their counts', async () => {
    api();
    await renderDashboard();
    const cards = await screen.findByRole('region', { name: 'Platform statistics' });
    await waitFor(() => expect(within(cards).getByText('42')).toBeInTheDocument());
    for (const title of [
      'Pending Nominations',
      'Approved Nominations',
      'Rejected Nominations',
      'Total Votes',
      'Active Scouts',
      'Total Nominations',
    ]) {
      expect(within(cards).getByText(title)).toBeInTheDocument();
    }
    expect(screen.getByRole('tab', { name: 'Pending (2)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('tab', { name: 'Approved (5)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Rejected (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Top Scouts' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Users (2)' })).toBeInTheDocument();
    expect(await screen.findByText('Player 2')).toBeInTheDocument();
    expect(screen.getByText('Admin')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Main Site' })).toHaveAttribute('href', '/');
  });

  it('approves a nomination: the row leaves and the counts move', async () => {
    let approved = false;
    const { requests } = api({
      'GET /api/admin/stats': () => ({
        body: approved ? { ...stats, pendingNominations: 1, approvedNominations: 6 } : stats,
      }),
      'POST /api/admin/nominations/2/approve': () => {
        approved = true;
        return { body: makeNomination(2, { status: 'approved' }) };
      },
    });
    await renderDashboard();
    await screen.findByText('Player 2');
    await userEvent.click(within(row('Player 2')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByText('Player 2')).not.toBeInTheDocument());
    expect(await screen.findByRole('tab', { name: 'Pending (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Approved (6)' })).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST' && r.url.endsWith('/2/approve'))).toBe(true);
  });

  it('rejects without a reason (no body) and with one', async () => {
    let rejected = 0;
    const reject = (id: number) => () => {
      rejected += 1;
      return { body: makeNomination(id, { status: 'rejected' }) };
    };
    const { requests } = api({
      'GET /api/admin/stats': () => ({
        body: { ...stats, pendingNominations: 2 - rejected, rejectedNominations: 1 + rejected },
      }),
      'POST /api/admin/nominations/2/reject': reject(2),
      'POST /api/admin/nominations/1/reject': reject(1),
    });
    await renderDashboard();
    await screen.findByText('Player 2');

    await userEvent.click(within(row('Player 2')).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Nomination' });
    await userEvent.type(within(dialog).getByLabelText('Reason (optional)'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByText('Player 2')).not.toBeInTheDocument());

    await userEvent.click(within(row('Player 1')).getByRole('button', { name: 'Reject' }));
    const second = await screen.findByRole('dialog', { name: 'Reject Nomination' });
    expect(within(second).getByLabelText('Reason (optional)')).toHaveValue('');
    await userEvent.type(within(second).getByLabelText('Reason (optional)'), ' Duplicate ');
    await userEvent.click(within(second).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByText('Player 1')).not.toBeInTheDocument());

    const rejects = requests.filter((r) => r.url.endsWith('/reject'));
    expect(rejects.map((r) => r.body)).toEqual([undefined, { reason: 'Duplicate' }]);
    expect(await screen.findByRole('tab', { name: 'Rejected (3)' })).toBeInTheDocument();
  });

  it('names who decided first when a decision loses the race, and leaves nothing half-done', async () => {
    let statsReads = 0;
    api({
      'GET /api/admin/stats': () => {
        statsReads += 1;
        return {
          body:
            statsReads === 1 ? stats : { ...stats, pendingNominations: 1, approvedNominations: 6 },
        };
      },
      'POST /api/admin/nominations/2/approve': {
        status: 409,
        body: {
          message: 'Already approved by Bob Boss',
          code: 'already_decided',
          status: 'approved',
          decidedBy: bob,
        },
      },
    });
    await renderDashboard();
    await screen.findByText('Player 2');
    await userEvent.click(within(row('Player 2')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(lastToast()?.description).toBe('Already approved by Bob Boss'));
    expect(lastToast()).toMatchObject({ title: 'Error', variant: 'destructive' });
    expect(screen.queryByText('Player 2')).not.toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Pending (1)' })).toBeInTheDocument();
    expect(statsReads).toBe(2);
  });

  it('toasts the spec message when a decision fails otherwise', async () => {
    api({ 'POST /api/admin/nominations/2/approve': { status: 500, body: 'boom' } });
    await renderDashboard();
    await screen.findByText('Player 2');
    await userEvent.click(within(row('Player 2')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(lastToast()?.description).toBe('Failed to approve nomination'));
    expect(screen.getByText('Player 2')).toBeInTheDocument();
  });

  it('verifies a player and removes the verification', async () => {
    const { requests } = api({
      'PUT /api/admin/players/1002/verified': (request) => ({
        body: {
          ...makeNomination(2).player,
          verified: (request.body as { verified: boolean }).verified,
        },
      }),
    });
    await renderDashboard();
    await screen.findByText('Player 2');
    await userEvent.click(within(row('Player 2')).getByRole('button', { name: 'Verify Player' }));
    expect(await within(row('Player 2')).findByText('Verified')).toBeInTheDocument();
    await userEvent.click(
      within(row('Player 2')).getByRole('button', { name: 'Remove Verification' }),
    );
    await waitFor(() =>
      expect(within(row('Player 2')).queryByText('Verified')).not.toBeInTheDocument(),
    );
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { verified: true },
      { verified: false },
    ]);
    expect(
      within(row('Player 2')).getByRole('button', { name: 'Edit Player' }),
    ).toBeInTheDocument();
  });

  it('toasts when verification fails', async () => {
    api({ 'PUT /api/admin/players/1002/verified': { status: 500 } });
    await renderDashboard();
    await screen.findByText('Player 2');
    await userEvent.click(within(row('Player 2')).getByRole('button', { name: 'Verify Player' }));
    await waitFor(() =>
      expect(lastToast()?.description).toBe('Failed to update verification status'),
    );
  });

  it('lists approved nominations and toasts when the rejected list fails', async () => {
    const { requests } = api({
      'GET /api/nominations': (request) =>
        request.url.includes('status=rejected')
          ? { status: 500 }
          : { body: [makeNomination(5, { status: 'approved' })] },
    });
    await renderDashboard('/admin/dashboard?tab=approved');
    expect(await screen.findByText('Player 5')).toBeInTheDocument();
    expect(requests.find((r) => r.url.includes('status=approved'))?.url).toContain('limit=50');
    await userEvent.click(screen.getByRole('tab', { name: /Rejected/ }));
    await waitFor(() =>
      expect(lastToast()?.description).toBe('Failed to fetch rejected nominations'),
    );
  });

  it('shows top scouts with name, username and points', async () => {
    api();
    await renderDashboard('/admin/dashboard?tab=scouts');
    const list = await screen.findByRole('list', { name: 'Top scouts' });
    expect(within(list).getByText('Sam Scout')).toBeInTheDocument();
    expect(within(list).getByText('@sam')).toBeInTheDocument();
    expect(within(list).getByText('40')).toBeInTheDocument();
  });

  it('changes roles and deletes users after confirming, never on the own row', async () => {
    const { requests } = api({
      'PUT /api/admin/users/11/role': { body: { ...users[1], role: 'admin' } },
      'DELETE /api/admin/users/11': { status: 204 },
    });
    await renderDashboard('/admin/dashboard?tab=users');
    const own = await screen.findByRole('row', { name: admin.name });
    expect(within(own).getByText('You')).toBeInTheDocument();
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();

    const sam = screen.getByRole('row', { name: 'Sam Scout' });
    await userEvent.click(within(sam).getByRole('button', { name: 'Make Admin' }));
    const confirmRole = await screen.findByRole('alertdialog', { name: 'Change User Role' });
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
    await userEvent.click(within(confirmRole).getByRole('button', { name: 'Make Admin' }));
    await waitFor(() =>
      expect(within(sam).getByRole('button', { name: 'Make Scout' })).toBeInTheDocument(),
    );
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ role: 'admin' });

    await userEvent.click(within(sam).getByRole('button', { name: 'Delete' }));
    const confirmDelete = await screen.findByRole('alertdialog', { name: 'Delete User' });
    expect(confirmDelete).toHaveTextContent('This action cannot be undone.');
    expect(confirmDelete).toHaveTextContent('nominations, votes, and other data');
    await userEvent.click(within(confirmDelete).getByRole('button', { name: 'Delete User' }));
    await waitFor(() =>
      expect(screen.queryByRole('row', { name: 'Sam Scout' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('tab', { name: 'Users (1)' })).toBeInTheDocument();
  });

  it('toasts failed role changes and deletions', async () => {
    api({
      'PUT /api/admin/users/11/role': { status: 500 },
      'DELETE /api/admin/users/11': { status: 500 },
    });
    await renderDashboard('/admin/dashboard?tab=users');
    const sam = await screen.findByRole('row', { name: 'Sam Scout' });
    await userEvent.click(within(sam).getByRole('button', { name: 'Make Admin' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Make Admin' }),
    );
    await waitFor(() => expect(lastToast()?.description).toBe('Failed to change user role'));
    await userEvent.click(within(sam).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete User' }),
    );
    await waitFor(() => expect(lastToast()?.description).toBe('Failed to delete user'));
  });
});

describe('admin dashboard, live', () => {
  it('adds a new nomination to Pending from the admins group only', async () => {
    api();
    await renderDashboard();
    await screen.findByText('Player 2');
    live('nomination.created', makeNomination(3), 'sport.football');
    live('nomination.created', makeNomination(3));
    live('nomination.created', makeNomination(3));
    const list = screen.getByRole('list', { name: 'Pending nominations' });
    await within(list).findByText('Player 3');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Player 3', 'Player 2', 'Player 1']);
  });

  it('marks an item another admin decided, then drops it; counts follow the event', async () => {
    api();
    await renderDashboard();
    await screen.findByText('Player 2');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      live('moderation.changed', {
        pending: 1,
        approved: 6,
        rejected: 1,
        item: makeNomination(2, { status: 'approved' }),
        action: 'approved',
        by: bob,
      });
      // The sport group's copy of a rejection's removal must not cut the mark short.
      live('nomination.removed', { id: 2 }, 'sport.football');
      expect(await screen.findByText('Approved by Bob Boss')).toBeInTheDocument();
      const decided = row('Player 2');
      expect(decided).toHaveAttribute('aria-disabled', 'true');
      expect(within(decided).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'Pending (1)' })).toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'Approved (6)' })).toBeInTheDocument();
      expect(
        within(screen.getByRole('region', { name: 'Platform statistics' })).getByText('6'),
      ).toBeInTheDocument();

      act(() => vi.advanceTimersByTime(DECIDED_MARK_MS));
      await waitFor(() => expect(screen.queryByText('Player 2')).not.toBeInTheDocument());
      expect(screen.getByText('Player 1')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops at once what this admin decided, seen live', async () => {
    api();
    await renderDashboard();
    await screen.findByText('Player 1');
    live('moderation.changed', {
      pending: 1,
      approved: 5,
      rejected: 2,
      item: makeNomination(1, { status: 'rejected' }),
      action: 'rejected',
      by: { id: admin.id, name: admin.name, username: admin.username },
    });
    await waitFor(() => expect(screen.queryByText('Player 1')).not.toBeInTheDocument());
    expect(screen.getByRole('tab', { name: 'Rejected (2)' })).toBeInTheDocument();
  });

  it('follows vote counts and edits of queued nominations', async () => {
    api();
    await renderDashboard();
    await screen.findByText('Player 2');
    live(
      'vote.changed',
      { votes: [{ nominationId: 2, voteCount: 12, version: 12 }] },
      'sport.football',
    );
    expect(await within(row('Player 2')).findByText('12 votes')).toBeInTheDocument();
    live('nomination.updated', makeNomination(1, { player: { name: 'Renamed Player' } }));
    expect(await screen.findByText('Renamed Player')).toBeInTheDocument();
  });

  it('shows the two-factor step, and reads nothing, when the session may not act as an admin', async () => {
    const { requests } = api();
    renderRoutes(routes, { path: '/admin/dashboard', user: { ...admin, actsAsAdmin: false } });
    await screen.findByRole('heading', { name: 'Admin Dashboard' }, { timeout: 5000 });

    expect(screen.getByRole('heading', { name: 'Two-factor sign-in needed' })).toBeInTheDocument();
    expect(
      screen.getByText('Turn on two-factor sign-in in Settings to use the admin tools.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Settings' })).toHaveAttribute(
      'href',
      '/settings#two-factor',
    );
    expect(screen.queryByRole('region', { name: 'Platform statistics' })).not.toBeInTheDocument();
    // Given the chance to fire, no admin read (nor a status list of nominations) goes out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reads = requests.filter(
      (request) =>
        request.url.startsWith('/api/admin/') || request.url.startsWith('/api/nominations?'),
    );
    expect(reads).toEqual([]);
  });
});
