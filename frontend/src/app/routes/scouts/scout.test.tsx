import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import type { Scout } from '@/features/social/api/types';
import { mockFetch, type MockResponse } from '@/testing/fetch-mock';
import { renderRoutes, scout as viewer } from '@/testing/render';

import ScoutPage from './scout';

const bob: Scout = {
  id: 5,
  username: 'bobby',
  name: 'Bob Stone',
  bio: 'Watching youth football every weekend.',
  location: 'Austin, USA',
  favoriteSport: 'football',
  points: 120,
  avatarUrl: null,
  email: null,
  phoneNumber: null,
  role: 'scout',
  createdAt: '2024-05-01T10:00:00Z',
  followerCount: 3,
  nominationCount: 7,
  isFollowing: false,
};

const nomination = (id: number, name: string, status: string) => ({
  id,
  player: {
    id,
    name,
    age: 16,
    graduationYear: null,
    position: 'Quarterback',
    nationality: 'USA',
    club: 'Tigers',
    sport: 'football',
    skills: '',
    videoLink: '',
    verified: false,
  },
  nominatedBy: { id: 5, name: 'Bob Stone', username: 'bobby' },
  createdAt: '2025-01-01T00:00:00Z',
  status,
  voteCount: 2,
  hasVoted: false,
});

function renderScout(id = '5', routes: Record<string, MockResponse | (() => MockResponse)> = {}) {
  const fetch = mockFetch({
    'GET /api/users/5': { body: bob },
    'GET /api/users/5/nominations': {
      body: [nomination(11, 'Sam Smith', 'approved'), nomination(12, 'Lee Park', 'pending')],
    },
    'GET /api/follow/status': { body: { isFollowing: false } },
    ...routes,
  });
  renderRoutes([{ path: '/scout/:id', element: <ScoutPage /> }], {
    path: `/scout/${id}`,
    user: viewer,
  });
  return fetch;
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('ScoutPage', () => {
  it('shows the scout and their recent nominations, with the total in the heading', async () => {
    const { requests } = renderScout();
    expect(await screen.findByRole('heading', { name: 'Bob Stone' })).toBeInTheDocument();
    expect(screen.getByText('@bobby')).toBeInTheDocument();
    expect(screen.getByText('120 points')).toBeInTheDocument();
    expect(screen.getByText('Watching youth football every weekend.')).toBeInTheDocument();
    expect(screen.getByText('Austin, USA')).toBeInTheDocument();
    expect(screen.queryByText('Email')).toBeNull();
    expect(screen.getByRole('button', { name: 'Report' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Discover/ })).toHaveAttribute(
      'href',
      '/discover',
    );

    expect(screen.getByRole('heading', { name: 'Recent Nominations (7)' })).toBeInTheDocument();
    const sam = await screen.findByRole('link', { name: /Sam Smith/ });
    expect(sam).toHaveAttribute('href', '/nominations/11');
    expect(sam).toHaveTextContent('Quarterback · Football');
    expect(within(sam).getByText('approved')).toBeInTheDocument();
    expect(requests.find((r) => r.url.includes('/nominations'))?.url).toContain('limit=5');
  });

  it('follows and unfollows with the toasts of the specification', async () => {
    let following = false;
    renderScout('5', {
      'POST /api/follow/user/5': () => (
        (following = true),
        { status: 201, body: { isFollowing: true } }
      ),
      'DELETE /api/follow': () => ((following = false), { body: { isFollowing: false } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Follow Bob Stone' }));
    expect(await screen.findByText('You are now following Bob Stone.')).toBeInTheDocument();
    expect(following).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Following Bob Stone' }));
    expect(await screen.findByText('Unfollowed')).toBeInTheDocument();
    expect(screen.getByText('You have unfollowed Bob Stone.')).toBeInTheDocument();
    expect(following).toBe(false);
  });

  it('falls back to its own message when following fails without a server message', async () => {
    renderScout('5', { 'POST /api/follow/user/5': { status: 502, body: 'Bad gateway' } });
    await userEvent.click(await screen.findByRole('button', { name: 'Follow Bob Stone' }));
    expect(await screen.findByText('An error occurred while following.')).toBeInTheDocument();
  });

  it("shows contact details when sent, and no Follow button on one's own page", async () => {
    renderScout('1', {
      'GET /api/users/1': {
        body: { ...bob, id: 1, email: 'jane@example.com', phoneNumber: '+1 555 0100' },
      },
      'GET /api/users/1/nominations': { body: [] },
    });
    expect(await screen.findByText('jane@example.com')).toBeInTheDocument();
    expect(screen.getByText('+1 555 0100')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Follow/ })).toBeNull();
  });

  it('says Scout Not Found for a missing scout', async () => {
    renderScout('99', {
      'GET /api/users/99': { status: 404, body: { message: 'Scout not found', code: 'not_found' } },
    });
    expect(await screen.findByRole('heading', { name: 'Scout Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Discover/ })).toHaveAttribute(
      'href',
      '/discover',
    );
    // Nothing to report: no Report button.
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
  });

  it('says Scout Not Found for an address that is not an id, without asking', async () => {
    const { requests } = renderScout('abc');
    expect(await screen.findByRole('heading', { name: 'Scout Not Found' })).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });
});
