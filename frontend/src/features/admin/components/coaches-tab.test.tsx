import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { routes } from '@/app/router';
import type { LiveEvent } from '@/lib/live/protocol';
import { mockFetch, type MockResponse, type RecordedRequest } from '@/testing/fetch-mock';
import { admin, deliverLiveEvent, renderRoutes } from '@/testing/render';

import type { AdminCoachVerification } from '../api/coaches';

function request(id: number, overrides: Partial<AdminCoachVerification> = {}) {
  return {
    id,
    organization: `Club ${id}`,
    roleTitle: 'Head coach, U14',
    evidenceUrl: 'https://club.example/staff',
    workEmail: 'coach@club.example',
    emailConfirmed: false,
    status: 'pending',
    decisionReason: '',
    createdAt: '2025-01-01T10:00:00Z',
    decidedAt: null,
    user: { id: 60 + id, name: `Coach ${id}`, username: `coach${id}` },
    decidedBy: null,
    endorsements: 0,
    ...overrides,
  } as AdminCoachVerification;
}

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
    'GET /api/admin/claims': { body: [] },
    'GET /api/coaches': { body: { ids: [] } },
    ...overrides,
  });
}

function live(data: Extract<LiveEvent, { type: 'coaches.changed' }>['data']) {
  act(() => deliverLiveEvent({ type: 'coaches.changed', group: 'admins', seq: 1, data }));
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('Coaches tab', () => {
  it('shows requests with their evidence, takes new ones live and decides with a reason', async () => {
    const withdrawn = request(9, { status: 'approved', decidedAt: '2024-12-01T10:00:00Z' });
    const { requests } = api({
      'GET /api/admin/coach-verifications': (r) => ({
        body: r.url.includes('status=approved') ? [withdrawn] : [request(1)],
      }),
      'POST /api/admin/coach-verifications/1/approve': {
        body: request(1, { status: 'approved', decidedAt: '2025-01-02T10:00:00Z' }),
      },
      'POST /api/admin/coach-verifications/9/withdraw': {
        body: { ...withdrawn, status: 'withdrawn' },
      },
    });
    renderRoutes(routes, { path: '/admin/dashboard?tab=coaches', user: admin });
    const pending = await screen.findByRole(
      'listitem',
      { name: 'Coach verification of Coach 1' },
      { timeout: 10_000 },
    );
    expect(within(pending).getByText('https://club.example/staff')).toBeVisible();
    expect(within(pending).getByText('not confirmed yet')).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Coaches (1)' })).toBeVisible();

    live({
      action: 'created',
      pending: 2,
      item: request(2, { createdAt: '2025-01-01T11:00:00Z' }),
    });
    expect(await screen.findByRole('tab', { name: 'Coaches (2)' })).toBeVisible();
    live({ action: 'email_confirmed', pending: 2, item: request(1, { emailConfirmed: true }) });
    expect(await within(pending).findByText('confirmed')).toBeVisible();

    const user = userEvent.setup();
    await user.type(within(pending).getByLabelText('Reason for Coach 1 (optional)'), 'Staff page');
    await user.click(within(pending).getByRole('button', { name: 'Approve coach' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'Staff page' }),
    );

    const verified = screen.getByRole('listitem', { name: 'Coach verification of Coach 9' });
    await user.click(within(verified).getByRole('button', { name: 'Withdraw badge' }));
    await waitFor(() =>
      expect(
        requests.some((r) => r.url.endsWith('/api/admin/coach-verifications/9/withdraw')),
      ).toBe(true),
    );
  }, 30_000);
});
