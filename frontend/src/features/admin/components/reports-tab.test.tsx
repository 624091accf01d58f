import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { routes } from '@/app/router';
import type { LiveEvent } from '@/lib/live/protocol';
import { mockFetch, type MockResponse, type RecordedRequest } from '@/testing/fetch-mock';
import { makeNomination } from '@/testing/nomination-factory';
import { admin, deliverLiveEvent, renderRoutes } from '@/testing/render';

import type { ModlogEntry, ReportGroup, Takedown } from '../api/types';

const reporter = { id: 11, name: 'Sam Scout', username: 'sam' };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const takedown: Takedown = {
  id: 4,
  reference: 'TD-0A1B2C3D',
  status: 'pending',
  relationship: 'parent_or_guardian',
  kind: 'remove',
  contactEmail: 'parent@example.com',
  details: 'She is 12.',
  createdAt: minutesAgo(5),
  confirmedAt: minutesAgo(4),
  decidedAt: null,
  decidedBy: null,
  decisionReason: '',
  nominationId: 7,
  player: makeNomination(7, { player: { name: 'Tia Minor' } }).player,
};

function group(count: number): ReportGroup {
  return {
    targetType: 'nomination',
    targetId: 3,
    nomination: makeNomination(3),
    user: null,
    count,
    firstReportedAt: minutesAgo(30),
    lastReportedAt: minutesAgo(1),
    reports: Array.from({ length: count }, (_, index) => ({
      id: index + 1,
      reason: 'not_real',
      text: index === 0 ? 'No such club' : '',
      createdAt: minutesAgo(30 - index),
      reporter: { ...reporter, id: 11 + index, username: `sam${index}` },
    })),
  };
}

const entry = (id: number, action: ModlogEntry['action'], label: string): ModlogEntry => ({
  id,
  actorId: admin.id,
  actorName: 'Ada Admin',
  action,
  targetType: 'nomination',
  targetId: id,
  targetLabel: label,
  reason: id === 1 ? 'Duplicate' : '',
  changes: { status: ['pending', 'rejected'] },
  createdAt: minutesAgo(2),
});

function api(overrides: Record<string, MockResponse | ((r: RecordedRequest) => MockResponse)>) {
  return mockFetch({
    'GET /api/admin/stats': {
      body: {
        pendingNominations: 0,
        approvedNominations: 0,
        rejectedNominations: 0,
        totalVotes: 0,
        activeScouts: 1,
        totalNominations: 0,
      },
    },
    'GET /api/admin/users': { body: [] },
    'GET /api/admin/nominations/pending': { body: [] },
    'GET /api/nominations': { body: [] },
    'GET /api/admin/reports': { body: [] },
    'GET /api/admin/takedown-requests': { body: [] },
    'GET /api/admin/modlog': { body: [] },
    ...overrides,
  });
}

function live<T extends LiveEvent['type']>(type: T, data: Extract<LiveEvent, { type: T }>['data']) {
  act(() => deliverLiveEvent({ type, group: 'admins', seq: 1, data } as LiveEvent));
}

async function openTab(path: string) {
  renderRoutes(routes, { path, user: admin });
  await screen.findByRole('heading', { name: 'Admin Dashboard' }, { timeout: 10_000 });
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('Reports tab', () => {
  it('shows takedowns with their age and reports grouped per item, and follows live events', async () => {
    let groups = [group(1)];
    api({
      'GET /api/admin/reports': () => ({ body: groups }),
      'GET /api/admin/takedown-requests': { body: [takedown] },
    });
    await openTab('/admin/dashboard?tab=reports');

    expect(await screen.findByText(/Takedown TD-0A1B2C3D: Tia Minor/)).toBeVisible();
    expect(screen.getByText(/waiting 5 minutes/)).toBeVisible();
    expect(screen.getByText(/Nomination of Player 3/)).toBeVisible();
    expect(screen.getByLabelText('1 reports')).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Reports (2)' })).toBeVisible();

    groups = [group(2)];
    live('report.created', group(2));
    expect(await screen.findByLabelText('2 reports')).toBeVisible();
  }, 20_000);

  it('marks a request not yet confirmed from its email, and follows its confirmation live', async () => {
    let requests: Takedown[] = [{ ...takedown, status: 'unconfirmed', confirmedAt: null }];
    api({ 'GET /api/admin/takedown-requests': () => ({ body: requests }) });
    await openTab('/admin/dashboard?tab=reports');

    const item = (await screen.findByText(/Takedown TD-0A1B2C3D/)).closest('li');
    expect(item).not.toBeNull();
    expect(within(item!).getByText('Unconfirmed')).toBeVisible();
    const user = userEvent.setup();
    await user.click(within(item!).getByRole('button', { name: 'Decide' }));
    expect(screen.getByRole('dialog')).toHaveTextContent(
      'The requester has not confirmed this request from their email yet',
    );
    await user.keyboard('{Escape}');

    requests = [takedown];
    live('takedown.confirmed', takedown);
    await waitFor(() => expect(screen.queryByText('Unconfirmed')).toBeNull());
  }, 20_000);

  it('resolves an item with an action and a reason', async () => {
    const { requests } = api({
      'GET /api/admin/reports': { body: [group(1)] },
      'POST /api/admin/reports/resolve': { body: { resolved: 1, action: 'hide_nomination' } },
    });
    await openTab('/admin/dashboard?tab=reports');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByLabelText('Hide the nomination'));
    const submit = within(dialog).getByRole('button', { name: 'Resolve' });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason'), 'No such player');
    await user.click(submit);

    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
        nominationId: 3,
        action: 'hide_nomination',
        reason: 'No such player',
      }),
    );
  }, 20_000);

  it('shows a reported endorsement with its rating and hides it', async () => {
    const reported: ReportGroup = {
      ...group(1),
      targetType: 'endorsement',
      targetId: 12,
      nomination: null,
      endorsement: {
        id: 12,
        playerId: 1003,
        playerName: 'Mia Jones',
        nominationId: 3,
        content: 'Rude words about a child',
        rating: 1,
        endorser: { id: 20, name: 'Carla Coach', username: 'carla' },
        removedAt: null,
      },
    };
    const { requests } = api({
      'GET /api/admin/reports': { body: [reported] },
      'POST /api/admin/reports/resolve': { body: { resolved: 1, action: 'hide_endorsement' } },
    });
    await openTab('/admin/dashboard?tab=reports');
    expect(await screen.findByText(/Endorsement of Mia Jones by Carla Coach/)).toBeVisible();
    expect(screen.getByText('Rude words about a child')).toBeVisible();
    expect(screen.getByText(/Rated 1 of 5/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open the player page' })).toHaveAttribute(
      'href',
      '/nominations/3',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).queryByLabelText('Hide the nomination')).toBeNull();
    await user.click(within(dialog).getByLabelText('Hide the endorsement'));
    await user.type(within(dialog).getByLabelText('Reason'), 'Abusive');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
        endorsementId: 12,
        action: 'hide_endorsement',
        reason: 'Abusive',
      }),
    );
  }, 20_000);
});

describe('Log tab', () => {
  it('lists the log, filters it and takes new rows live', async () => {
    const { requests } = api({
      'GET /api/admin/modlog': { body: [entry(1, 'nomination_reject', 'Player 1')] },
    });
    await openTab('/admin/dashboard?tab=log');
    const log = await screen.findByRole('list', { name: 'Moderation log' });
    expect(log).toHaveTextContent('Ada Admin rejected a nomination: Player 1');
    expect(log).toHaveTextContent('Reason: Duplicate');
    expect(log).toHaveTextContent('status: "pending" → "rejected"');

    live('modlog.created', entry(2, 'player_verify', 'Player 2'));
    expect(await screen.findByText('verified a player', { exact: false })).toBeVisible();
    expect(within(log).getAllByRole('listitem')).toHaveLength(2);

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Action'), 'user_delete');
    await waitFor(() =>
      expect(requests.some((r) => r.url.includes('action=user_delete'))).toBe(true),
    );
  }, 20_000);
});
