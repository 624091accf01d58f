import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { routes } from '@/app/router';
import type { LiveEvent } from '@/lib/live/protocol';
import { mockFetch } from '@/testing/fetch-mock';
import { admin, deliverLiveEvent, renderRoutes } from '@/testing/render';

import type { IntegrityFlag } from '../api/types';

const ring: IntegrityFlag = {
  id: 3,
  rule: 'shared_prefix',
  status: 'open',
  nominationId: 7,
  playerName: 'Zoë Núñez',
  accounts: [21, 22, 23, 24, 25],
  nominators: [],
  evidence: { accounts: 5, cluster: 'ab12', windowMinutes: 60 },
  explanation:
    '5 accounts from one network (cluster ab12) voted for this nomination within 60 minutes',
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
};

function api(flags: IntegrityFlag[]) {
  return mockFetch({
    'GET /api/admin/integrity/flags': { body: flags },
    'POST /api/admin/integrity/void': { body: { votes: 5, nominations: [] } },
    'GET /api/admin/nominations/7/votes': {
      body: [
        {
          id: 90,
          nominationId: 7,
          playerName: 'Zoë Núñez',
          nominatorId: 4,
          voterId: 21,
          voterName: 'Fan One',
          voterUsername: 'fan1',
          votedAt: '2026-01-01T09:59:00Z',
          accountCreatedAt: '2026-01-01T09:00:00Z',
          accountAgeHours: 2160,
          clusterId: 'ab12',
          trusted: false,
          status: 'active',
        },
      ],
    },
  });
}

async function renderIntegrity() {
  renderRoutes(routes, { path: '/admin/dashboard?tab=integrity', user: admin });
  await screen.findByRole('heading', { name: 'Admin Dashboard' }, { timeout: 10000 });
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('integrity tab', () => {
  it('shows a flag pushed live, explained, and voids its votes with a reason', async () => {
    const { requests } = api([]);
    await renderIntegrity();
    expect(await screen.findByText('No flags')).toBeInTheDocument();

    act(() =>
      deliverLiveEvent({
        type: 'integrity.flagged',
        group: 'admins',
        seq: 1,
        data: ring,
      } as LiveEvent),
    );
    const flag = await screen.findByRole('listitem', {
      name: 'Flag 3: One network, many accounts',
    });
    expect(within(flag).getByText(ring.explanation)).toBeInTheDocument();
    // Each flagged account links to its page.
    expect(within(flag).getByRole('link', { name: 'Account #21' })).toHaveAttribute(
      'href',
      '/scout/21',
    );
    expect(within(flag).getAllByRole('link', { name: /^Account #/ })).toHaveLength(5);
    expect(screen.getByRole('tab', { name: 'Integrity (1)' })).toBeInTheDocument();

    await userEvent.click(within(flag).getByText('Voters'));
    const voter = await within(flag).findByRole('row', { name: /Fan One/ });
    expect(voter).toHaveTextContent('90 days');
    expect(within(voter).getByRole('link', { name: 'Fan One' })).toHaveAttribute(
      'href',
      '/scout/21',
    );
    expect(voter).toHaveTextContent('raw count only');

    await userEvent.click(within(flag).getByRole('button', { name: 'Void votes' }));
    await userEvent.type(screen.getByLabelText('Reason'), 'A ring of one network');
    await userEvent.click(screen.getByRole('button', { name: 'Void votes' }));
    await waitFor(() =>
      expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
        flagId: 3,
        reason: 'A ring of one network',
      }),
    );
  }, 20000);
});
