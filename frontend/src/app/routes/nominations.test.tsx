import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { queueIncoming } from '@/features/nominations/api/incoming';
import { nominationKeys } from '@/features/nominations/api/nomination-keys';
import { useSportStore } from '@/stores/sport';
import { mockFetch, type RecordedRequest } from '@/testing/fetch-mock';
import { makeNomination } from '@/testing/nomination-factory';
import { admin, renderRoutes, scout } from '@/testing/render';

import { routes } from '../router';

const renderApp = (path: string, user = scout) => renderRoutes(routes, { path, user });
/** The first wait of a test also loads the page's lazy chunk: slow under a full parallel run. */
const PAGE = { timeout: 5000 };
const search = (request: RecordedRequest) => new URL(request.url, 'http://x').searchParams;

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('/nominations', () => {
  it('shows each nomination as a card, with "Not specified" for what is missing', async () => {
    const { requests } = mockFetch({
      'GET /api/nominations': {
        body: [
          makeNomination(3, {
            voteCount: 12,
            player: {
              name: 'Ana Silva',
              age: 15,
              graduationYear: 2030,
              club: '',
              nationality: '',
              skills: 'Left foot.',
            },
          }),
        ],
      },
    });
    renderApp('/nominations');
    const card = await screen.findByRole('article', { name: 'Ana Silva' }, PAGE);
    expect(screen.getByRole('heading', { name: 'All Nominations', level: 1 })).toBeInTheDocument();
    expect(within(card).getAllByText('Not specified')).toHaveLength(2);
    expect(within(card).getByText(/ YRS$/)).toBeInTheDocument();
    expect(within(card).getByText('2030 GRAD')).toBeInTheDocument();
    expect(within(card).getByTestId('vote-count')).toHaveTextContent('12');
    expect(within(card).getByText('Left foot.')).toHaveClass('line-clamp-3');
    expect(within(card).getByText(/Nominated by/)).toHaveTextContent('Nominated by Nora Nominator');
    expect(within(card).getByRole('link', { name: 'Player Profile' })).toHaveAttribute(
      'href',
      '/nominations/3',
    );
    expect(within(card).getByRole('button', { name: 'VOTE' })).toBeInTheDocument();
    const read = requests.find((request) => request.url.startsWith('/api/nominations'))!;
    expect(search(read).get('sport')).toBe('football');
    expect(search(read).has('q')).toBe(false);
  });

  it('searches on the server once typing pauses, and tells no results from no nominations', async () => {
    const { requests } = mockFetch({
      'GET /api/nominations': (request) => ({
        body: search(request).get('q') === 'real' ? [makeNomination(4)] : [],
      }),
    });
    const { router } = renderApp('/nominations');
    expect(
      await screen.findByRole('heading', { name: 'No Nominations Yet' }, PAGE),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Nominate Player' })).toHaveLength(2);

    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search nominations' }), 'real');
    expect(await screen.findByRole('article', { name: 'Player 4' }, PAGE)).toBeInTheDocument();
    const searches = requests.filter((request) => search(request).has('q'));
    expect(searches.map((request) => search(request).get('q'))).toEqual(['real']);
    expect(router.state.location.search).toBe('?q=real');

    await user.type(screen.getByRole('searchbox', { name: 'Search nominations' }), 'x');
    expect(
      await screen.findByRole('heading', { name: 'No Results Found' }, PAGE),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all nominations' }));
    expect(
      await screen.findByRole('heading', { name: 'No Nominations Yet' }, PAGE),
    ).toBeInTheDocument();
  });

  it('reads the next page from the Link header', async () => {
    mockFetch({
      'GET /api/nominations': (request) =>
        search(request).get('cursor') === 'c2'
          ? { body: [makeNomination(12)] }
          : {
              body: [makeNomination(11)],
              headers: { Link: '</api/nominations?sport=football&cursor=c2>; rel="next"' },
            },
    });
    renderApp('/nominations');
    await screen.findByRole('article', { name: 'Player 11' }, PAGE);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('article', { name: 'Player 12' }, PAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('holds live arrivals behind an "N new" pill once the reader has scrolled', async () => {
    mockFetch({ 'GET /api/nominations': { body: [makeNomination(30)] } });
    renderApp('/nominations');
    await screen.findByRole('article', { name: 'Player 30' }, PAGE);
    const listKey = nominationKeys.list({ sport: 'football', q: '' });

    Object.defineProperty(window, 'scrollY', { value: 900, configurable: true });
    act(() => {
      window.dispatchEvent(new Event('scroll'));
      queueIncoming(listKey, makeNomination(31));
      queueIncoming(listKey, makeNomination(32));
    });
    const pill = await screen.findByRole('button', { name: '2 new' }, PAGE);
    expect(screen.queryByRole('article', { name: 'Player 31' })).not.toBeInTheDocument();
    await userEvent.click(pill);
    expect(
      screen.getAllByRole('article').map((card) => card.getAttribute('aria-labelledby')),
    ).toEqual(['nomination-32-name', 'nomination-31-name', 'nomination-30-name']);
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });

    // At the top, an arrival comes straight in.
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    act(() => {
      window.dispatchEvent(new Event('scroll'));
      queueIncoming(listKey, makeNomination(33));
    });
    expect(await screen.findByRole('article', { name: 'Player 33' }, PAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /new$/ })).not.toBeInTheDocument();
  });
});

describe('/vote', () => {
  const voted = makeNomination(1, { hasVoted: true, player: { name: 'Voted Val' } });
  const open = makeNomination(2, { player: { name: 'Open Otto' } });

  it('filters by the reader’s votes, with the voted count on its tab', async () => {
    mockFetch({ 'GET /api/nominations': { body: [voted, open] } });
    const { router } = renderApp('/vote');
    await screen.findByRole('article', { name: 'Voted Val' }, PAGE);
    expect(screen.getAllByRole('article')).toHaveLength(2);
    const tabs = screen.getByRole('tablist', { name: 'Filter nominations' });
    expect(within(tabs).getByRole('tab', { name: /^Voted/ })).toHaveTextContent('Voted1');

    await userEvent.click(within(tabs).getByRole('tab', { name: /^Voted/ }));
    expect(router.state.location.search).toBe('?tab=voted');
    expect(screen.getAllByRole('article').map((card) => card.textContent)).toEqual([
      expect.stringContaining('Voted Val'),
    ]);
    await userEvent.click(within(tabs).getByRole('tab', { name: 'Not Voted' }));
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Open Otto' })).toBeInTheDocument();
  });

  it.each([
    { path: '/vote', body: [], title: 'No Nominations Found' },
    { path: '/vote?tab=voted', body: [open], title: 'No Votes Yet' },
    { path: '/vote?tab=not-voted', body: [voted], title: 'All Caught Up' },
  ])('$path shows "$title" when there is nothing to show', async ({ path, body, title }) => {
    mockFetch({ 'GET /api/nominations': { body } });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title }, PAGE)).toBeInTheDocument();
  });
});

describe('/nominations/needing-votes', () => {
  it('shows 6 skeletons while loading', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    renderApp('/nominations/needing-votes');
    const loading = await screen.findByRole('status', { name: 'Loading nominations' }, PAGE);
    expect(within(loading).getAllByTestId('nomination-card-skeleton')).toHaveLength(6);
  });

  it('lists the nominations of the selected sport', async () => {
    act(() => useSportStore.getState().setSport('baseball'));
    const { requests } = mockFetch({
      'GET /api/nominations/needing-votes': { body: [makeNomination(5)] },
    });
    renderApp('/nominations/needing-votes');
    expect(await screen.findByRole('article', { name: 'Player 5' }, PAGE)).toBeInTheDocument();
    const listed = requests.filter((request) => request.url.includes('/needing-votes'));
    expect(search(listed.at(-1)!).get('sport')).toBe('baseball');
  });

  it('is all caught up when every nomination has 5 votes', async () => {
    mockFetch({ 'GET /api/nominations/needing-votes': { body: [] } });
    renderApp('/nominations/needing-votes');
    expect(
      await screen.findByRole('heading', { name: 'ALL CAUGHT UP!' }, PAGE),
    ).toBeInTheDocument();
    expect(screen.getByText('All active nominations have at least 5 votes')).toBeInTheDocument();
  });
});

describe('/results', () => {
  it('ranks the top players with podium colours and bars against the leader', async () => {
    mockFetch({
      'GET /api/leaderboard/players': {
        body: [8, 20, 10, 2, 1].map((voteCount, index) =>
          makeNomination(60 + index, { voteCount, player: { name: `P${index}` } }),
        ),
      },
      'GET /api/leaderboard': {
        body: [{ id: 9, name: 'Nora Nominator', username: 'nora', nominationCount: 7 }],
      },
    });
    renderApp('/results');
    const board = await screen.findByRole('list', { name: 'Top Players' }, PAGE);
    const rows = within(board).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByText(/^P\d$/).textContent)).toEqual([
      'P1',
      'P2',
      'P0',
      'P3',
      'P4',
    ]);
    const badge = (index: number) => within(rows[index]).getByText('Rank').parentElement;
    expect(badge(0)).toHaveClass('bg-amber-400');
    expect(badge(1)).toHaveClass('bg-slate-300');
    expect(badge(2)).toHaveClass('bg-amber-700');
    expect(badge(3)).toHaveClass('bg-destructive-soft');
    expect(within(rows[2]).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('href', '/nominations/61');
    expect(screen.getByRole('link', { name: 'Open Wall Display' })).toHaveAttribute(
      'href',
      '/wall',
    );

    await userEvent.click(screen.getByRole('tab', { name: 'Top Scouts' }));
    const scouts = await screen.findByRole('list', { name: 'Top Scouts' }, PAGE);
    expect(within(scouts).getByRole('listitem')).toHaveTextContent(
      'Nora Nominator@nora7nominations',
    );
  });
});

describe('/nominations/:id', () => {
  const nomination = makeNomination(50, {
    status: 'approved',
    voteCount: 14,
    createdAt: '2025-03-07T12:00:00Z',
    nominatedBy: { id: scout.id, name: scout.name, username: scout.username },
    player: {
      name: 'Mia Lopez',
      age: null,
      graduationYear: null,
      club: '',
      videoLink: 'https://v.example/mia',
    },
  });

  it('shows a skeleton while loading', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    renderApp('/nominations/50');
    expect(
      await screen.findByRole('status', { name: 'Loading nomination' }, PAGE),
    ).toBeInTheDocument();
  });

  it('shows the player profile', async () => {
    mockFetch({
      'GET /api/nominations/50': { body: nomination },
      'GET /api/follow/status': { body: { isFollowing: false } },
    });
    renderApp('/nominations/50');
    const profile = await screen.findByRole('article', { name: 'Mia Lopez' }, PAGE);
    expect(within(profile).getByText('approved')).toHaveClass('uppercase', 'text-success');
    expect(within(profile).getByText('14')).toBeInTheDocument();
    expect(within(profile).getByText('Community Votes')).toBeInTheDocument();
    expect(within(profile).queryByText('Graduation Year')).not.toBeInTheDocument();
    expect(within(profile).getByText('Current Club/School').nextSibling).toHaveTextContent(
      'Not specified',
    );
    expect(within(profile).getByText('March 7, 2025')).toBeInTheDocument();
    expect(within(profile).getByRole('link', { name: 'Watch Highlights' })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(within(profile).getByRole('link', { name: /Jane Doe/ })).toHaveTextContent('@jdoe');
    expect(within(profile).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('offers Edit only to the nominator and admins', async () => {
    const theirs = { ...nomination, nominatedBy: { id: 77, name: 'Other', username: 'o' } };
    mockFetch({
      'GET /api/nominations/50': { body: theirs },
      'GET /api/follow/status': { body: { isFollowing: false } },
    });
    const { unmount } = renderApp('/nominations/50');
    await screen.findByRole('article', { name: 'Mia Lopez' }, PAGE);
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    unmount();
    renderApp('/nominations/50', admin);
    await screen.findByRole('article', { name: 'Mia Lopez' }, PAGE);
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('follows and unfollows with the right toasts', async () => {
    let following = false;
    const { requests } = mockFetch({
      'GET /api/nominations/50': { body: nomination },
      'GET /api/follow/status': () => ({ body: { isFollowing: following } }),
      'POST /api/follow/player/1050': () => {
        following = true;
        return { status: 201, body: { isFollowing: true } };
      },
      'DELETE /api/follow': () => {
        following = false;
        return { body: { isFollowing: false } };
      },
    });
    renderApp('/nominations/50');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Follow Player' }, PAGE));
    const toasts = screen.getByRole('region', { name: /Notifications/ });
    expect(
      await within(toasts).findByText('You are now following Mia Lopez.', {}, PAGE),
    ).toBeVisible();
    expect(within(toasts).getByText('Following')).toBeVisible();
    const button = await screen.findByRole('button', { name: 'Following' }, PAGE);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await user.click(button);
    expect(
      await within(toasts).findByText('You have unfollowed Mia Lopez.', {}, PAGE),
    ).toBeVisible();
    expect(within(toasts).getByText('Unfollowed')).toBeVisible();
    const unfollow = requests.find((request) => request.method === 'DELETE')!;
    expect(unfollow.body).toEqual({ playerId: 1050 });
    expect(
      search(requests.find((r) => r.url.startsWith('/api/follow/status'))!).get('playerId'),
    ).toBe('1050');
  });

  it('says when the follow status cannot be checked', async () => {
    mockFetch({
      'GET /api/nominations/50': { body: nomination },
      'GET /api/follow/status': { status: 500 },
    });
    renderApp('/nominations/50');
    expect(await screen.findByText('Failed to check follow status', {}, PAGE)).toBeInTheDocument();
  });

  it('shows "Nomination Not Found" with a way back', async () => {
    mockFetch({
      'GET /api/nominations/404': {
        status: 404,
        body: { message: 'Nomination not found', code: 'not_found' },
      },
    });
    const { router } = renderApp('/nominations/404');
    expect(
      await screen.findByRole('heading', { name: 'Nomination Not Found', level: 1 }, PAGE),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to Nominations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/nominations'));
  });
});

describe('/ (dashboard)', () => {
  it('shows the stats, my nominations with their status colours, and recent nominations', async () => {
    mockFetch({
      'GET /api/stats': { body: { nominations: 12, votes: 345, nominationsNeedingVotes: 4 } },
      'GET /api/users/1/nominations': {
        body: ['approved', 'pending', 'rejected'].map((status, index) =>
          makeNomination(70 + index, { status, player: { name: `Mine ${status}` } }),
        ),
      },
      'GET /api/nominations/recent': { body: [makeNomination(80)] },
    });
    renderApp('/');
    expect(await screen.findByText('345', {}, PAGE)).toBeInTheDocument();
    expect(screen.getByText('Total Nominations').parentElement).toHaveTextContent('12');
    expect(screen.getByRole('link', { name: /Nominations Needing Votes/ })).toHaveAttribute(
      'href',
      '/nominations/needing-votes',
    );
    const mine = await screen.findByRole('region', { name: 'My Nominations' }, PAGE);
    for (const [status, tone] of [
      ['approved', 'text-success'],
      ['pending', 'text-warning'],
      ['rejected', 'text-destructive'],
    ]) {
      const card = within(mine).getByRole('article', { name: `Mine ${status}` });
      expect(within(card).getByText(status)).toHaveClass(tone);
      expect(within(card).getByRole('button', { name: 'Edit Player' })).toBeInTheDocument();
      expect(within(card).getByText('Football')).toBeInTheDocument();
    }
    const recent = screen.getByRole('region', { name: 'Recent Nominations' });
    expect(within(recent).getByRole('article', { name: 'Player 80' })).toBeInTheDocument();
    expect(within(recent).getByRole('link', { name: 'View All' })).toHaveAttribute(
      'href',
      '/nominations',
    );
  });

  it('hides My Nominations when there are none and offers to start one', async () => {
    mockFetch({
      'GET /api/stats': { body: { nominations: 0, votes: 0, nominationsNeedingVotes: 0 } },
      'GET /api/users/1/nominations': { body: [] },
      'GET /api/nominations/recent': { body: [] },
    });
    renderApp('/');
    expect(await screen.findByText('No nominations yet', {}, PAGE)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'My Nominations' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start Nomination' }));
    expect(
      await screen.findByRole('dialog', { name: 'Athlete Nomination' }, PAGE),
    ).toBeInTheDocument();
  });
});
