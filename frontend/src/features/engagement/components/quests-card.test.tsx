import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';

import type { LiveEvent } from '@/lib/live/protocol';
import { mockFetch } from '@/testing/fetch-mock';
import { deliverLiveEvent, renderRoutes, scout } from '@/testing/render';

import type { Quest } from '../api/types';

import { EngagementSection } from './engagement-section';
import { QuestsCard } from './quests-card';

function quest(type: Quest['type'], progress: number, target: number): Quest {
  return {
    type,
    name: type === 'daily_vote' ? 'Vote where it is needed' : 'Ten nominations this week',
    description: '',
    pointsReward: 5,
    progress,
    target,
    completed: progress >= target,
    completedAt: null,
    expiresAt: '2026-03-30T00:00:00+02:00',
  };
}

const QUESTS = {
  enabled: true,
  timeZone: 'Europe/Paris',
  quests: [quest('daily_vote', 0, 1), quest('weekly_votes', 3, 10)],
};

function renderCard(adult: boolean) {
  return renderRoutes([{ path: '/', element: <QuestsCard adult={adult} /> }], { user: scout });
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('QuestsCard', () => {
  it('shows nothing and asks nothing for an account that is not an adult', () => {
    const { requests } = mockFetch({ 'GET /api/quests': { body: QUESTS } });
    renderCard(false);
    expect(screen.queryByText('Quests')).not.toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it("shows nothing when the server answers that the account is not an adult's", async () => {
    const { requests } = mockFetch({
      'GET /api/quests': { status: 403, body: { message: 'No', code: 'adults_only' } },
    });
    renderCard(true);
    await waitFor(() => expect(requests).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Quests')).not.toBeInTheDocument());
  });

  it('offers quests to an adult who has not turned them on', async () => {
    const { requests } = mockFetch({
      'GET /api/quests': { body: { ...QUESTS, enabled: false } },
      'PUT /api/settings/engagement': { body: { quests: true, showStreak: false } },
    });
    renderCard(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on quests' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ quests: true }),
    );
  });

  it('moves progress live on quest.progress', async () => {
    mockFetch({ 'GET /api/quests': { body: QUESTS } });
    renderCard(true);
    const daily = await screen.findByRole('progressbar', { name: /Vote where it is needed/ });
    expect(daily).toHaveAttribute('aria-valuenow', '0');
    act(() =>
      deliverLiveEvent({
        type: 'quest.progress',
        group: `user.${scout.id}`,
        seq: 1,
        data: { ...quest('daily_vote', 1, 1), completedAt: '2026-03-29T10:00:00Z' },
      } as LiveEvent),
    );
    expect(
      await screen.findByRole('progressbar', { name: 'Vote where it is needed: 1 of 1' }),
    ).toHaveAttribute('aria-valuenow', '1');
    expect(screen.getByLabelText('Completed')).toBeInTheDocument();
  });
});

describe('EngagementSection', () => {
  it('shows nothing and asks nothing for an account that is not an adult', () => {
    const { requests } = mockFetch({});
    renderRoutes([{ path: '/', element: <EngagementSection adult={false} /> }], { user: scout });
    expect(screen.queryByText('Quests, streak and invitations')).not.toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('gives an adult the switches and their referral code', async () => {
    mockFetch({
      'GET /api/settings/engagement': { body: { quests: false, showStreak: false } },
      'GET /api/referrals': {
        body: {
          code: 'AB12CD34EF',
          link: '/register?ref=AB12CD34EF',
          pointsPerReferral: 25,
          rewardedThisMonth: 0,
          monthlyCap: 10,
          referred: [
            {
              name: 'Pat',
              joinedAt: '2026-01-01T00:00:00Z',
              state: 'not_rewarded',
              reason: 'same_network',
            },
          ],
        },
      },
    });
    renderRoutes([{ path: '/', element: <EngagementSection adult /> }], { user: scout });
    expect(await screen.findByRole('switch', { name: 'Quests' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Show my streak on my profile' })).not.toBeChecked();
    expect(await screen.findByTestId('referral-code')).toHaveTextContent('AB12CD34EF');
    expect(screen.getByText('Pat: not rewarded (joined from your network)')).toBeInTheDocument();
  });
});
