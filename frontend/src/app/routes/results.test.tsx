import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import type { BoardEntry, BoardKind } from '@/lib/boards';
import { FakeWebSocket } from '@/testing/fake-websocket';
import { mockFetch, type RecordedRequest } from '@/testing/fetch-mock';
import { makeNomination } from '@/testing/nomination-factory';
import { renderRoutes, scout } from '@/testing/render';

import { routes } from '../router';

/** The first wait of a test also loads the page's lazy chunk: slow under a full parallel run. */
const PAGE = { timeout: 5000 };
const search = (request: RecordedRequest) => new URL(request.url, 'http://x').searchParams;

const entry = (
  id: number,
  place: { rank: number; score: number; movement: number | null; voteCount?: number },
): BoardEntry => ({ ...makeNomination(id, { voteCount: place.voteCount ?? 10 }), ...place });

const BOARDS: Record<BoardKind, BoardEntry[]> = {
  all: [
    entry(1, { rank: 1, score: 30, movement: 0, voteCount: 30 }),
    entry(2, { rank: 2, score: 20, movement: 0, voteCount: 20 }),
  ],
  trending: [
    entry(2, { rank: 1, score: 5, movement: 2 }),
    entry(3, { rank: 2, score: 1, movement: null }),
    entry(1, { rank: 3, score: 1, movement: -1 }),
  ],
  weekly: [entry(3, { rank: 1, score: 4, movement: 0 })],
};

const week = (monday: string, ids: number[]) => ({
  week: monday,
  sport: 'football',
  winners: ids.map((id, index) => ({
    ...makeNomination(id),
    rank: index + 1,
    score: 9 - index,
  })),
});

let requests: RecordedRequest[];

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
  ({ requests } = mockFetch({
    'GET /api/leaderboard/players': (request) => ({
      body: BOARDS[(search(request).get('board') ?? 'all') as BoardKind],
    }),
    'GET /api/leaderboard': { body: [] },
    'GET /api/leaderboard/weekly-history': (request) =>
      search(request).get('cursor')
        ? { body: [week('2025-02-24', [7])] }
        : {
            body: [week('2025-03-10', [4, 5, 6]), week('2025-03-03', [5])],
            headers: {
              Link: '</api/leaderboard/weekly-history?sport=football&limit=3&cursor=c2>; rel="next"',
            },
          },
  }));
});

const names = () =>
  within(screen.getByRole('list', { name: 'Top Players' }))
    .getAllByRole('listitem')
    .map((row) => within(row).getByText(/^Player \d+$/).textContent);

function renderResults(path = '/results') {
  return renderRoutes(routes, { path, user: scout });
}

describe('/results boards', () => {
  it('opens the board the address names, with its scores and movement arrows', async () => {
    renderResults('/results?board=trending');
    await screen.findByRole('list', { name: 'Top Players' }, PAGE);
    expect(screen.getByRole('tab', { name: 'Trending' })).toHaveAttribute('aria-selected', 'true');
    expect(names()).toEqual(['Player 2', 'Player 3', 'Player 1']);
    const rows = within(screen.getByRole('list', { name: 'Top Players' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('5 votes in 24 h');
    expect(rows[1]).toHaveTextContent('1 vote in 24 h');
    expect(within(rows[0]).getByText('Up 2 places')).toBeInTheDocument();
    expect(within(rows[1]).getByText('New on the board')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Down 1 place')).toBeInTheDocument();
    // Equal 24-hour counts side by side share a place, as on every board (1, 2, 2).
    expect(within(rows[1]).getByText('Rank').parentElement).toHaveTextContent('2');
    expect(within(rows[2]).getByText('Rank').parentElement).toHaveTextContent('2');
    // The figure can be below the votes cast today: it says which votes it leaves out.
    expect(
      screen.getByText(
        /Votes from brand-new accounts and votes removed by moderators are left out: brand-new accounts’ votes count only in the all-time total/,
      ),
    ).toBeVisible();
    const read = requests.find((r) => r.url.startsWith('/api/leaderboard/players'))!;
    expect(search(read).get('board')).toBe('trending');
    expect(search(read).get('sport')).toBe('football');
  });

  it('switches boards by click and by keyboard, keeping the board in the address', async () => {
    const { router } = renderResults();
    await screen.findByRole('list', { name: 'Top Players' }, PAGE);
    expect(names()).toEqual(['Player 1', 'Player 2']);
    expect(
      within(screen.getByRole('list', { name: 'Top Players' })).queryByText(/Up|Down|New/),
    ).toBeNull();

    await userEvent.click(screen.getByRole('tab', { name: 'This week' }));
    await waitFor(() => expect(names()).toEqual(['Player 3']));
    expect(screen.getByRole('list', { name: 'Top Players' })).toHaveTextContent(
      '4 votes this week',
    );
    expect(router.state.location.search).toBe('?board=weekly');

    // Arrow keys move between the tabs (Radix roving focus), each showing its board.
    screen.getByRole('tab', { name: 'This week' }).focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Trending' })).toHaveFocus();
    await waitFor(() => expect(names()).toEqual(['Player 2', 'Player 3', 'Player 1']));
    expect(router.state.location.search).toBe('?board=trending');

    await userEvent.click(screen.getByRole('tab', { name: 'Top Scouts' }));
    expect(router.state.location.search).toBe('?tab=scouts&board=trending');
    await userEvent.click(screen.getByRole('tab', { name: 'Top Players' }));
    await userEvent.click(screen.getByRole('tab', { name: 'All time' }));
    expect(router.state.location.search).toBe('');
  });

  it("takes each board's live event into that board only", async () => {
    const { queryClient } = renderResults('/results?board=trending');
    await screen.findByRole('list', { name: 'Top Players' }, PAGE);
    const socket = FakeWebSocket.latest();
    act(() => {
      socket.open();
      socket.receive({ type: 'hello', groups: { 'user.1': 0 } });
      socket.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 0 } });
    });
    // A new group is read again once (events may have passed before it); let that settle.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    act(() =>
      socket.receive({
        type: 'leaderboard.changed',
        group: 'sport.football',
        seq: 1,
        sport: 'football',
        data: {
          board: 'trending',
          players: [
            entry(3, { rank: 1, score: 6, movement: 1 }),
            entry(2, { rank: 2, score: 5, movement: -1 }),
          ],
        },
      }),
    );
    await waitFor(() => expect(names()).toEqual(['Player 3', 'Player 2']));
    expect(screen.getByText('Up 1 place')).toBeInTheDocument();

    // The weekly board's event does not touch the trending one.
    act(() =>
      socket.receive({
        type: 'leaderboard.changed',
        group: 'sport.football',
        seq: 2,
        sport: 'football',
        data: {
          board: 'weekly',
          week: '2025-03-17',
          resetsAt: '2025-03-24T00:00:00Z',
          players: [entry(9, { rank: 1, score: 1, movement: null })],
        },
      }),
    );
    expect(names()).toEqual(['Player 3', 'Player 2']);
    await userEvent.click(screen.getByRole('tab', { name: 'This week' }));
    await waitFor(() => expect(names()).toEqual(['Player 9']));
    const weeklyReads = requests.filter((r) => search(r).get('board') === 'weekly');
    expect(weeklyReads).toHaveLength(0);
  });

  it('shows Player of the Week, newest week first, and earlier weeks on demand', async () => {
    renderResults();
    const weeks = await screen.findByRole('list', { name: 'Past weeks' }, PAGE);
    const podium = within(weeks).getByRole('list', { name: 'Week of March 10, 2025' });
    expect(
      within(podium)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['Rank 1Player 49 votes', 'Rank 2Player 58 votes', 'Rank 3Player 67 votes']);
    expect(within(podium).getAllByRole('link')[0]).toHaveAttribute('href', '/nominations/4');
    expect(within(weeks).getByRole('list', { name: 'Week of March 3, 2025' })).toBeInTheDocument();
    expect(within(weeks).queryByRole('list', { name: 'Week of February 24, 2025' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Show earlier weeks' }));
    expect(
      await within(weeks).findByRole('list', { name: 'Week of February 24, 2025' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show earlier weeks' })).toBeNull();
    const next = requests.filter((r) => r.url.includes('weekly-history')).at(-1)!;
    expect(search(next).get('cursor')).toBe('c2');
  });
});
