import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { pathOf } from '@/testing/fetch-mock';
import { makeNomination } from '@/testing/nomination-factory';
import { renderRoutes, scout } from '@/testing/render';

import { NominationGrid } from '../components/nomination-card';

import { useNominations } from './get-nominations';
import { flattenPages } from './paged';
import { isVoteInFlight } from './vote';

type Pending = {
  method: string;
  url: string;
  body: unknown;
  resolve: (response: Response) => void;
};

/** A fetch whose calls wait until the test answers them, in any order. */
function deferredFetch() {
  const pending: Pending[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      const text = await request.text();
      return new Promise<Response>((resolve) =>
        pending.push({
          method: request.method,
          url: pathOf(request.url),
          body: text ? JSON.parse(text) : undefined,
          resolve,
        }),
      );
    }),
  );
  const take = (method: string, path: string): Pending => {
    const index = pending.findIndex(
      (call) => call.method === method && new URL(call.url, 'http://x').pathname === path,
    );
    if (index < 0) throw new Error(`No ${method} ${path} waiting`);
    return pending.splice(index, 1)[0];
  };
  const json = (status: number, body?: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  return {
    pending,
    answer: async (method: string, path: string, status: number, body?: unknown) => {
      const call = take(method, path);
      await act(async () => call.resolve(json(status, body)));
      return call;
    },
  };
}

function Grid() {
  const query = useNominations({ sport: 'football', q: '' });
  const nominations = useMemo(() => flattenPages(query.data), [query.data]);
  return <NominationGrid nominations={nominations} />;
}

const ada = makeNomination(1, { voteCount: 3, player: { name: 'Ada' } });
const ben = makeNomination(2, { voteCount: 5, hasVoted: true, player: { name: 'Ben' } });

const cardOf = (name: string) => screen.getByRole('article', { name });
const countOf = (name: string) => within(cardOf(name)).getByTestId('vote-count').textContent;
const buttonOf = (name: string) => within(cardOf(name)).getByRole('button');

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

async function renderGrid() {
  const server = deferredFetch();
  const rendered = renderRoutes([{ path: '/', element: <Grid /> }], { user: scout });
  await waitFor(() => expect(server.pending).toHaveLength(1));
  await server.answer('GET', '/api/nominations', 200, [ada, ben]);
  await screen.findByRole('article', { name: 'Ada' });
  // The cards read the verified coaches once, for the badge beside a nominator's name.
  await waitFor(() => expect(server.pending).toHaveLength(1));
  await server.answer('GET', '/api/coaches', 200, { ids: [] });
  return { ...rendered, server };
}

describe('optimistic voting', () => {
  it('keeps the keyboard focus on the button while its call runs and after', async () => {
    const { server } = await renderGrid();
    const user = userEvent.setup();

    buttonOf('Ada').focus();
    await user.keyboard('{Enter}');
    expect(buttonOf('Ada')).toHaveFocus();
    expect(buttonOf('Ada')).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('{Enter}'); // ignored while the call runs
    expect(server.pending).toHaveLength(1);
    await server.answer('POST', '/api/votes', 201, {
      nominationId: 1,
      voteCount: 4,
      hasVoted: true,
    });
    expect(buttonOf('Ada')).toHaveFocus();
    expect(buttonOf('Ada')).not.toHaveAttribute('aria-disabled');

    await user.keyboard('{Enter}'); // Enter again takes the vote back
    expect(buttonOf('Ada')).toHaveTextContent(/^VOTE$/);
    expect(buttonOf('Ada')).toHaveAttribute('aria-pressed', 'false');
    await server.answer('DELETE', '/api/votes/1', 200, {
      nominationId: 1,
      voteCount: 3,
      hasVoted: false,
    });
    expect(buttonOf('Ada')).toHaveFocus();
  });

  it('moves at once, never flickers under concurrent clicks, and ends as the server says', async () => {
    const { server, queryClient } = await renderGrid();
    const user = userEvent.setup();

    await user.click(within(cardOf('Ada')).getByRole('button', { name: 'VOTE' }));
    expect(countOf('Ada')).toBe('4');
    expect(buttonOf('Ada')).toHaveTextContent('VOTED');
    // Held, not disabled: a disabled button would drop the keyboard focus.
    expect(buttonOf('Ada')).toHaveAttribute('aria-disabled', 'true');
    expect(buttonOf('Ada')).toHaveAttribute('aria-busy', 'true');
    expect(isVoteInFlight(queryClient, 1)).toBe(true);

    await user.click(within(cardOf('Ben')).getByRole('button', { name: 'VOTED' }));
    expect(countOf('Ben')).toBe('4');
    expect(buttonOf('Ben')).toHaveTextContent('VOTE');
    expect(server.pending.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api/votes',
      'DELETE /api/votes/2',
    ]);
    expect(server.pending[0].body).toEqual({ nominationId: 1 });

    // Ada's vote returns while Ben's is still out: no refetch yet, nothing moves back.
    await server.answer('POST', '/api/votes', 201, {
      nominationId: 1,
      voteCount: 4,
      hasVoted: true,
    });
    expect(await screen.findByText('Vote submitted')).toBeInTheDocument();
    expect(screen.getByText('You have voted for Ada.')).toBeInTheDocument();
    expect(server.pending).toHaveLength(1);
    expect(countOf('Ada')).toBe('4');
    expect(buttonOf('Ada')).toBeEnabled();
    expect(countOf('Ben')).toBe('4');

    // Ben's unvote fails: only Ben goes back, and now the reads are refreshed once.
    await server.answer('DELETE', '/api/votes/2', 500);
    expect(await screen.findByText('An error occurred while voting.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(countOf('Ben')).toBe('5');
    expect(buttonOf('Ben')).toHaveTextContent('VOTED');
    expect(countOf('Ada')).toBe('4');
    await waitFor(() =>
      expect(
        server.pending.map((call) => `${call.method} ${new URL(call.url, 'http://x').pathname}`),
      ).toEqual(['GET /api/nominations']),
    );
    await server.answer('GET', '/api/nominations', 200, [
      { ...ada, voteCount: 4, hasVoted: true },
      ben,
    ]);
    expect(countOf('Ada')).toBe('4');
    expect(countOf('Ben')).toBe('5');
    expect(server.pending).toHaveLength(0);
  });

  it('takes a vote back with its own toast and keeps the server count', async () => {
    const { server } = await renderGrid();
    const user = userEvent.setup();
    await user.click(within(cardOf('Ben')).getByRole('button', { name: 'VOTED' }));
    await server.answer('DELETE', '/api/votes/2', 200, {
      nominationId: 2,
      voteCount: 7,
      hasVoted: false,
    });
    expect(await screen.findByText('Vote removed')).toBeInTheDocument();
    expect(screen.getByText('You have removed your vote for Ben.')).toBeInTheDocument();
    // Someone else voted meanwhile: the server's count wins over the optimistic one.
    expect(countOf('Ben')).toBe('7');
  });

  it("shows the server's message when it gives one", async () => {
    const { server } = await renderGrid();
    const user = userEvent.setup();
    await user.click(within(cardOf('Ada')).getByRole('button', { name: 'VOTE' }));
    await server.answer('POST', '/api/votes', 409, {
      message: 'You have already voted for this nomination',
      code: 'already_voted',
    });
    expect(
      await screen.findByText('You have already voted for this nomination'),
    ).toBeInTheDocument();
    expect(countOf('Ada')).toBe('3');
  });

  it('never lets a click cast the same vote twice: the button waits for the call', async () => {
    const { server } = await renderGrid();
    const user = userEvent.setup();
    const vote = within(cardOf('Ada')).getByRole('button', { name: 'VOTE' });
    await user.click(vote);
    await user.click(buttonOf('Ada'));
    await user.click(buttonOf('Ada'));
    expect(server.pending).toHaveLength(1);
    expect(countOf('Ada')).toBe('4');
  });
});
