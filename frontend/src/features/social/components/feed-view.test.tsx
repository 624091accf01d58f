import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { mockFetch } from '@/testing/fetch-mock';
import { renderRoutes, scout } from '@/testing/render';

import type { Activity, ScoutCard } from '../api/types';
import type { ActivitySubscription } from '../hooks/use-live-activities';

import { FeedView } from './feed-view';

const HOUR = 60 * 60 * 1000;

function activity(id: number, overrides: Partial<Activity> = {}): Activity {
  return {
    id,
    userId: 7,
    activityType: 'nomination_created',
    relatedUserId: null,
    relatedPlayerId: null,
    relatedNominationId: null,
    metadata: {},
    createdAt: new Date(Date.now() - 2 * HOUR).toISOString(),
    user: { id: 7, name: 'Seven', username: 'seven' },
    ...overrides,
  };
}

const scoutCard = (id: number, name: string): ScoutCard => ({
  id,
  name,
  username: name.toLowerCase(),
  bio: '',
  location: '',
  favoriteSport: 'football',
  points: 10,
  avatarUrl: null,
});

/** A stand-in for the live layer: `push` delivers an activity to the feed. */
function liveStub() {
  const handlers = new Set<Parameters<ActivitySubscription>[0]>();
  const subscribe: ActivitySubscription = (handler) => {
    handlers.add(handler);
    return () => handlers.delete(handler);
  };
  const push = (item: Activity, sport = 'football') =>
    act(() => {
      for (const handler of handlers) handler(item, sport);
    });
  return { subscribe, push };
}

function feedRoutes(feed: Activity[] = []) {
  return mockFetch({
    'GET /api/feed': { body: feed },
    'GET /api/user/following': { body: [] },
    'GET /api/users/suggested': { body: [scoutCard(1, 'Jane'), scoutCard(5, 'Bob')] },
    'GET /api/follow/status': { body: { isFollowing: false } },
  });
}

function renderFeed(subscribe?: ActivitySubscription) {
  return renderRoutes(
    [{ path: '/feed', element: <FeedView viewerId={scout.id} subscribe={subscribe} /> }],
    {
      path: '/feed',
      user: scout,
    },
  );
}

function setScroll(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
}

beforeEach(() => setScroll(0));
afterEach(() => setScroll(0));

describe('FeedView', () => {
  it('shows each activity with its author, text, relative time and nomination link', async () => {
    const { requests } = feedRoutes([
      activity(1, { metadata: { playerName: 'Sam Smith' }, relatedNominationId: 3 }),
      activity(2, { activityType: 'vote_cast', userId: 9, metadata: { playerName: 'Lee Park' } }),
      activity(3, { activityType: 'mystery' }),
    ]);
    renderFeed();

    const items = within(await screen.findByRole('list', { name: 'Activity' })).getAllByRole(
      'listitem',
    );
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Scout #7 nominated Sam Smith');
    expect(items[0]).toHaveTextContent('about 2 hours ago');
    expect(within(items[0]).getByRole('link', { name: /View nomination/ })).toHaveAttribute(
      'href',
      '/nominations/3',
    );
    expect(within(items[0]).getByRole('link', { name: 'Scout #7' })).toHaveAttribute(
      'href',
      '/scout/7',
    );
    expect(items[1]).toHaveTextContent('Scout #9 voted for Lee Park');
    expect(within(items[1]).queryByRole('link', { name: /View nomination/ })).toBeNull();
    expect(items[2]).toHaveTextContent('Scout #7 was active in the community');

    const feedRequest = requests.find((request) => request.url.startsWith('/api/feed'));
    expect(feedRequest?.url).toContain('sport=football');
    expect(feedRequest?.url).not.toContain('following');
  });

  it('asks for followed activity only with the Following filter', async () => {
    const { requests } = feedRoutes();
    renderFeed();
    expect(await screen.findByText('No activity yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Following' }));
    expect(await screen.findByText('Nothing from your network yet')).toBeInTheDocument();
    const feedUrls = requests.filter((r) => r.url.startsWith('/api/feed')).map((r) => r.url);
    expect(feedUrls.at(-1)).toContain('following=true');
    expect(screen.getByRole('button', { name: 'Following' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('shows the network and suggests scouts other than the viewer', async () => {
    feedRoutes();
    renderFeed();
    const network = await screen.findByRole('complementary', { name: 'Your network' });
    expect(within(network).getByText('Your Network')).toBeInTheDocument();
    expect(await within(network).findByText('0')).toBeInTheDocument();
    expect(within(network).getByText('Football')).toBeInTheDocument();
    expect(await within(network).findByRole('link', { name: /Bob/ })).toHaveAttribute(
      'href',
      '/scout/5',
    );
    expect(within(network).queryByRole('link', { name: /Jane/ })).toBeNull();
    expect(within(network).getByRole('button', { name: 'Follow Bob' })).toBeInTheDocument();
    expect(within(network).getByRole('link', { name: 'See all' })).toHaveAttribute(
      'href',
      '/discover',
    );
  });

  it('puts live activity on top at once while the reader is at the top', async () => {
    feedRoutes([activity(1, { metadata: { playerName: 'Old News' } })]);
    const live = liveStub();
    renderFeed(live.subscribe);
    await screen.findByText(/Old News/);

    live.push(activity(2, { activityType: 'vote_cast', metadata: { playerName: 'Fresh' } }));
    const items = screen
      .getAllByRole('listitem')
      .filter((item) => item.textContent?.includes('Scout #'));
    expect(items[0]).toHaveTextContent('voted for Fresh');
    // Another sport's activity does not belong here.
    live.push(activity(3, { metadata: { playerName: 'Puck' } }), 'hockey');
    expect(screen.queryByText(/Puck/)).toBeNull();
  });

  it('keeps live activity behind an "N new" pill once the reader has scrolled', async () => {
    feedRoutes([activity(1, { metadata: { playerName: 'Old News' } })]);
    const live = liveStub();
    renderFeed(live.subscribe);
    await screen.findByText(/Old News/);

    setScroll(800);
    live.push(activity(2, { metadata: { playerName: 'First' } }));
    live.push(activity(3, { metadata: { playerName: 'Second' } }));
    live.push(activity(3, { metadata: { playerName: 'Second' } }));
    expect(screen.queryByText(/First/)).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: '2 new' }));
    const list = screen.getByRole('list', { name: 'Activity' });
    const texts = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(texts[0]).toContain('nominated Second');
    expect(texts[1]).toContain('nominated First');
    expect(texts[2]).toContain('nominated Old News');
    expect(screen.queryByRole('button', { name: /new$/ })).toBeNull();
    expect(window.scrollTo).toHaveBeenCalled();
  });
});
