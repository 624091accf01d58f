import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { routes } from '@/app/router';
import { useSportStore } from '@/stores/sport';
import { FakeWebSocket } from '@/testing/fake-websocket';
import { mockFetch } from '@/testing/fetch-mock';
import { makeNomination } from '@/testing/nomination-factory';
import { renderRoutes, scout } from '@/testing/render';

import { TICKER_SIZE } from '../api/ticker';
import type { WallActivity } from '../api/types';

const players = [
  makeNomination(1, { voteCount: 9, player: { sport: 'soccer' } }),
  makeNomination(2, { voteCount: 7, player: { sport: 'soccer' } }),
  makeNomination(3, { voteCount: 4, player: { sport: 'soccer' } }),
];
const scouts = [
  { id: 5, name: 'Sue Scout', username: 'sue', nominationCount: 3 },
  { id: 6, name: 'Tim Talent', username: 'tim', nominationCount: 1 },
];

const activity = (id: number): WallActivity => ({
  id,
  userId: 5,
  activityType: 'vote_cast',
  relatedUserId: null,
  relatedPlayerId: 1001,
  relatedNominationId: 1,
  metadata: { playerName: 'Player 1' },
  createdAt: '2025-01-01T10:00:00Z',
  user: { id: 5, name: 'Sue Scout', username: 'sue' },
});

const placed = (id: number, rank: number, score: number, movement: number | null) => ({
  ...makeNomination(id, { voteCount: 30, player: { sport: 'soccer' } }),
  rank,
  score,
  movement,
});
const boards: Record<string, unknown[]> = {
  all: players,
  trending: [placed(3, 1, 5, 2), placed(1, 2, 2, -1), placed(8, 3, 1, null)],
  weekly: [placed(2, 1, 4, 0)],
};
/** The weekly board resets 2 days, 3 hours and 4 minutes (and a little) from now. */
const RESET_IN_MS = ((2 * 24 + 3) * 60 + 4) * 60_000 + 500;
let resetsAt: string;

let requests: ReturnType<typeof mockFetch>['requests'];
let queryClient: ReturnType<typeof renderRoutes>['queryClient'];
const boardOf = (url: string) => new URL(url, 'http://x').searchParams.get('board');

beforeEach(() => {
  resetsAt = new Date(Date.now() + RESET_IN_MS).toISOString();
  ({ requests } = mockFetch({
    'GET /api/leaderboard/players': (request) => ({ body: boards[boardOf(request.url) ?? 'all'] }),
    'GET /api/leaderboard/week': () => ({ body: { week: '2025-03-10', startsAt: '', resetsAt } }),
    'GET /api/leaderboard': { body: scouts },
    'GET /api/feed': { body: [activity(1)] },
  }));
});

/**
 * The live socket opens and subscribes (the wall reads its boards again, which this waits for);
 * returns a function that sends sport events.
 */
async function connect(sport: string) {
  const socket = FakeWebSocket.latest();
  const firstReads = requests.length;
  act(() => {
    socket.open();
    socket.receive({ type: 'hello', groups: { 'user.1': 0 } });
    socket.receive({ type: 'subscribed', sport, groups: { [`sport.${sport}`]: 0 } });
  });
  await waitFor(() => expect(requests.length).toBe(2 * firstReads));
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  let seq = 0;
  return {
    socket,
    send: (type: string, data: unknown) => {
      seq += 1;
      socket.receive({ type, group: `sport.${sport}`, seq, sport, data });
    },
  };
}

const names = (board: string) =>
  within(screen.getByRole('region', { name: board }))
    .getAllByRole('listitem')
    .map((row) => row.querySelector('.truncate')?.textContent);

async function renderWall(path = '/wall?sport=soccer') {
  const rendered = renderRoutes(routes, { path, user: scout });
  queryClient = rendered.queryClient;
  await screen.findByRole('region', { name: 'Top Players' }, { timeout: 5000 });
  return rendered;
}

describe('wall', () => {
  it("shows the sport's boards full screen, without the site header, and selects the sport", async () => {
    await renderWall();
    expect(screen.getByRole('heading', { name: 'Soccer Leaderboard' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Open user menu/ })).not.toBeInTheDocument();
    expect(names('Top Players')).toEqual(['Player 1', 'Player 2', 'Player 3']);
    expect(names('Top Scouts')).toEqual(['Sue Scout', 'Tim Talent']);
    expect(screen.getByRole('region', { name: 'Recent activity' })).toHaveTextContent(
      'Sue Scout voted for Player 1',
    );
    expect(requests.find((r) => r.url.startsWith('/api/leaderboard/players'))?.url).toContain(
      'sport=soccer',
    );
    expect(useSportStore.getState().sport).toBe('soccer');
  });

  it('moves a row to its new rank when a vote arrives, and replaces the boards on leaderboard.changed', async () => {
    await renderWall();
    const live = await connect('soccer');
    act(() =>
      live.send('vote.changed', { votes: [{ nominationId: 3, voteCount: 12, version: 12 }] }),
    );
    await waitFor(() => expect(names('Top Players')).toEqual(['Player 3', 'Player 1', 'Player 2']));
    expect(screen.getByRole('region', { name: 'Top Players' })).toHaveTextContent('12');

    // Another sport's event is not this wall's.
    act(() =>
      live.socket.receive({
        type: 'vote.changed',
        group: 'sport.hockey',
        seq: 1,
        sport: 'hockey',
        data: { votes: [{ nominationId: 2, voteCount: 99, version: 99 }] },
      }),
    );

    const entering = makeNomination(4, { voteCount: 20 });
    act(() =>
      live.send('leaderboard.changed', {
        board: 'all',
        players: [entering, players[0]],
        scouts: [scouts[1]],
      }),
    );
    await waitFor(() => expect(names('Top Players')).toEqual(['Player 4', 'Player 1']));
    expect(names('Top Scouts')).toEqual(['Tim Talent']);
  });

  it('keeps the ticker bounded through 10,000 activities', async () => {
    await renderWall();
    const live = await connect('soccer');
    act(() => {
      for (let id = 2; id <= 10_001; id += 1) live.send('activity.created', activity(id));
    });
    const ticker = screen.getByRole('region', { name: 'Recent activity' });
    await waitFor(() => expect(within(ticker).getAllByRole('listitem')).toHaveLength(TICKER_SIZE));
  });

  it('dims the numbers while the socket is down, and comes back right without reading again', async () => {
    await renderWall();
    const live = await connect('soccer');
    const before = requests.length;
    act(() => live.socket.serverClose(1006));
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent(
      'Reconnecting…',
    );
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');

    // The server restarted: the next socket resumes (nothing was missed here) and the snapshot
    // brings the boards whole.
    await waitFor(() => expect(FakeWebSocket.latest()).not.toBe(live.socket), { timeout: 4000 });
    const socket = FakeWebSocket.latest();
    const entering = makeNomination(4, { voteCount: 20, player: { sport: 'soccer' } });
    const board = { board: 'all', players: [entering, players[0]], scouts: [scouts[1]] };
    const stats = { nominations: 2, votes: 29, nominationsNeedingVotes: 0 };
    act(() => {
      socket.open();
      socket.receive({ type: 'hello', groups: { 'user.1': 0 } });
      socket.receive({ type: 'subscribed', sport: 'soccer', groups: { 'sport.soccer': 0 } });
      socket.receive({
        type: 'snapshot',
        group: 'sport.soccer',
        seq: 0,
        data: { leaderboards: { all: board }, stats },
      });
    });
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    await waitFor(() => expect(names('Top Players')).toEqual(['Player 4', 'Player 1']));
    expect(names('Top Scouts')).toEqual(['Tim Talent']);
    expect(requests.slice(before)).toEqual([]);
  });

  it('rotates the players between the boards, showing which one is up', async () => {
    await renderWall('/wall?sport=soccer&rotate=1');
    const shown = () =>
      within(screen.getByRole('list', { name: 'Boards' }))
        .getAllByRole('listitem')
        .filter((item) => item.getAttribute('aria-current') === 'true')
        .map((item) => item.textContent);
    expect(shown()).toEqual(['All time']);
    expect(names('Top Players')).toEqual(['Player 1', 'Player 2', 'Player 3']);
    // Every board is read once, up front: a rotation never waits for the network.
    expect(
      requests
        .map((r) => boardOf(r.url))
        .filter(Boolean)
        .sort(),
    ).toEqual(['all', 'trending', 'weekly']);

    await waitFor(() => expect(shown()).toEqual(['Trending']), { timeout: 3000 });
    const region = screen.getByRole('region', { name: 'Top Players' });
    expect(region).toHaveTextContent('Votes in 24 h');
    expect(names('Top Players')).toEqual(['Player 3', 'Player 1', 'Player 8']);
    expect(within(region).getByText('Up 2 places')).toBeInTheDocument();
    expect(within(region).getByText('Down 1 place')).toBeInTheDocument();
    expect(within(region).getByText('New on the board')).toBeInTheDocument();

    await waitFor(() => expect(shown()).toEqual(['This week']), { timeout: 3000 });
    expect(screen.getByRole('region', { name: 'Top Players' })).toHaveTextContent(
      'Votes this week',
    );
    expect(names('Top Players')).toEqual(['Player 2']);
    await waitFor(() => expect(shown()).toEqual(['All time']), { timeout: 3000 });
  });

  it('keeps one board with ?board=, live from its own event', async () => {
    await renderWall('/wall?sport=soccer&board=trending');
    expect(
      within(screen.getByRole('list', { name: 'Boards' })).getAllByRole('listitem'),
    ).toHaveLength(1);
    expect(requests.map((r) => boardOf(r.url)).filter(Boolean)).toEqual(['trending']);
    const live = await connect('soccer');
    // A vote does not reorder trending (its order is the server's), its event does.
    act(() =>
      live.send('vote.changed', { votes: [{ nominationId: 8, voteCount: 99, version: 99 }] }),
    );
    act(() =>
      live.send('leaderboard.changed', {
        board: 'trending',
        players: [placed(8, 1, 6, 2), placed(3, 2, 5, -1)],
      }),
    );
    await waitFor(() => expect(names('Top Players')).toEqual(['Player 8', 'Player 3']));
    expect(screen.getByRole('region', { name: 'Top Players' })).toHaveTextContent('Up 2 places');
  });

  it('counts down to the weekly reset, and follows the week turning over', async () => {
    await renderWall('/wall?sport=soccer&board=weekly');
    const countdown = () => screen.getByText(/^Weekly reset in/);
    expect(countdown()).toHaveTextContent(/^Weekly reset in 2d 03:0[34]:\d\d$/);
    const live = await connect('soccer');
    // The week turns over: the weekly board starts again and the countdown runs to the next.
    const next = new Date(Date.now() + 7 * 86_400_000 - 1000).toISOString();
    act(() =>
      live.send('leaderboard.changed', {
        board: 'weekly',
        week: '2025-03-17',
        resetsAt: next,
        players: [],
      }),
    );
    await waitFor(() => expect(countdown()).toHaveTextContent(/^Weekly reset in 6d 23:59:\d\d$/));
    expect(screen.getByText('No votes this week yet')).toBeInTheDocument();
  });
});
