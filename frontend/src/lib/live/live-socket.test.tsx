import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { useConnectionStore } from '@/stores/connection';
import { useSportStore } from '@/stores/sport';
import { FakeWebSocket } from '@/testing/fake-websocket';

import { subscribeLiveEvents } from './event-bus';
import { LiveSocket, type LiveSocketProps } from './live-socket';
import type { LiveEvent } from './protocol';

afterEach(() => {
  act(() => useConnectionStore.setState({ status: 'closed' }));
});

function renderSocket(props: Partial<LiveSocketProps> = {}) {
  const handlers = {
    onEvent: vi.fn<(event: LiveEvent) => void>(),
    onResync: vi.fn<(groups: string[]) => void>(),
    onSignedOut: vi.fn(),
    onSessionChanged: vi.fn(),
  };
  const result = render(<LiveSocket enabled {...handlers} {...props} />);
  return { ...result, ...handlers };
}

/** Waits for the socket the hook opens (its address is resolved asynchronously). */
async function nextSocket(count = 1): Promise<FakeWebSocket> {
  await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(count));
  return FakeWebSocket.latest();
}

function greet(socket: FakeWebSocket, { user = 0, sport = 0 } = {}) {
  act(() => {
    socket.open();
    socket.receive({ type: 'hello', groups: { 'user.1': user } });
    socket.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': sport } });
  });
}

const status = () => useConnectionStore.getState().status;

describe('LiveSocket', () => {
  it('connects to /ws/ on this origin, subscribes to the sport and shows Live', async () => {
    renderSocket();
    const socket = await nextSocket();
    expect(socket.url).toBe(`ws://${window.location.host}/ws/`);
    expect(status()).toBe('connecting');

    act(() => {
      socket.open();
      socket.receive({ type: 'hello', groups: { 'user.1': 0 } });
    });
    expect(socket.sentMessages()).toEqual([{ type: 'subscribe', sport: 'football' }]);
    expect(status()).toBe('connecting');
    act(() =>
      socket.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 0 } }),
    );
    expect(status()).toBe('open');

    // A new sport goes over the same socket.
    act(() => useSportStore.getState().setSport('soccer'));
    expect(socket.sentMessages().at(-1)).toEqual({ type: 'subscribe', sport: 'soccer' });
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('does not connect while signed out', async () => {
    renderSocket({ enabled: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(FakeWebSocket.instances).toHaveLength(0);
    expect(status()).toBe('closed');
  });

  it('applies a burst of 200 events completely and in order, inside the message handler', async () => {
    const { onEvent } = renderSocket();
    const socket = await nextSocket();
    greet(socket);
    const heard: number[] = [];
    const stop = subscribeLiveEvents('vote.changed', ({ seq, data }) => {
      // The cache handler has already run when the bus hears the event.
      expect(onEvent).toHaveBeenLastCalledWith(expect.objectContaining({ seq }));
      heard.push(data.votes[0].voteCount);
    });

    act(() => {
      for (let seq = 1; seq <= 200; seq += 1) {
        socket.receive({
          type: 'vote.changed',
          group: 'sport.football',
          seq,
          sport: 'football',
          data: { votes: [{ nominationId: 7, voteCount: seq, version: seq }] },
        });
      }
    });
    stop();

    expect(onEvent).toHaveBeenCalledTimes(200);
    expect(onEvent.mock.calls.map(([event]) => event.seq)).toEqual(
      Array.from({ length: 200 }, (_, index) => index + 1),
    );
    expect(heard).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
  });

  it('after 1001 comes back within a second and a half, resumes, and stays Live meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      renderSocket();
      const first = await vi.waitFor(() => FakeWebSocket.latest());
      greet(first, { user: 2, sport: 7 });
      expect(status()).toBe('open');

      act(() => first.serverClose(1001));
      // A planned restart: no "Connecting" while the reconnect is quick.
      expect(status()).toBe('open');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1300);
      });
      const second = await vi.waitFor(() => {
        expect(FakeWebSocket.instances).toHaveLength(2);
        return FakeWebSocket.latest();
      });
      act(() => second.open());
      expect(status()).toBe('open');
      greet(second, { user: 2, sport: 9 });
      expect(second.sentMessages()).toEqual([
        { type: 'subscribe', sport: 'football', cursor: 7 },
        { type: 'resume', cursors: { 'sport.football': 7 } },
      ]);
      expect(status()).toBe('open');
      // The grace ended with the greeting: nothing turns the status later.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5000);
      });
      expect(status()).toBe('open');
    } finally {
      vi.useRealTimers();
    }
  });

  it('after 1001 shows Connecting once the reconnect outlasts the grace', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      renderSocket();
      const first = await vi.waitFor(() => FakeWebSocket.latest());
      greet(first);
      act(() => first.serverClose(1001));
      expect(status()).toBe('open');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3100);
      });
      expect(status()).toBe('connecting');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reconnects after 4008 and resumes from its cursors', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { onEvent } = renderSocket();
      const first = await vi.waitFor(() => FakeWebSocket.latest());
      greet(first, { user: 2, sport: 7 });
      act(() =>
        first.receive({
          type: 'vote.changed',
          group: 'sport.football',
          seq: 8,
          sport: 'football',
          data: { votes: [{ nominationId: 1, voteCount: 3, version: 3 }] },
        }),
      );

      act(() => first.serverClose(4008));
      expect(status()).toBe('connecting');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
      const second = await vi.waitFor(() => {
        expect(FakeWebSocket.instances).toHaveLength(2);
        return FakeWebSocket.latest();
      });
      greet(second, { user: 2, sport: 10 });
      // The subscribe carries the cursor; a server that ignores it (the fake announces its
      // position) gets the resume.
      expect(second.sentMessages()).toEqual([
        { type: 'subscribe', sport: 'football', cursor: 8 },
        { type: 'resume', cursors: { 'sport.football': 8 } },
      ]);
      act(() => {
        for (const seq of [9, 10]) {
          second.receive({
            type: 'vote.changed',
            group: 'sport.football',
            seq,
            sport: 'football',
            data: { votes: [{ nominationId: 1, voteCount: seq - 5, version: seq }] },
          });
        }
        second.receive({ type: 'resumed', groups: { 'sport.football': 10 } });
      });
      expect(onEvent.mock.calls.map(([event]) => event.seq)).toEqual([8, 9, 10]);
      expect(status()).toBe('open');
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells the app to read again on a first subscription and on resync', async () => {
    const { onResync } = renderSocket();
    const socket = await nextSocket();
    greet(socket);
    expect(onResync.mock.calls).toEqual([[['user.1']], [['sport.football']]]);
    act(() => socket.receive({ type: 'resync', groups: ['user.1'], cursors: { 'user.1': 40 } }));
    expect(onResync).toHaveBeenLastCalledWith(['user.1']);
  });

  it('stops and signs out on 4401, without reconnecting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { onSignedOut } = renderSocket();
      const socket = await vi.waitFor(() => FakeWebSocket.latest());
      act(() => {
        socket.open();
        socket.serverClose(4401);
      });
      expect(onSignedOut).toHaveBeenCalledOnce();
      expect(status()).toBe('closed');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(60_000);
      });
      expect(FakeWebSocket.instances).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('after 4001 comes back at once, checks the session and reads everything again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { onSessionChanged, onResync } = renderSocket();
      const first = await vi.waitFor(() => FakeWebSocket.latest());
      greet(first, { user: 2, sport: 7 });
      onResync.mockClear();
      act(() => first.serverClose(4001));
      expect(onSessionChanged).toHaveBeenCalledOnce();
      expect(status()).toBe('connecting');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(500);
      });
      const second = await vi.waitFor(() => {
        expect(FakeWebSocket.instances).toHaveLength(2);
        return FakeWebSocket.latest();
      });
      greet(second, { user: 5, sport: 30 });
      expect(second.sentMessages()).toEqual([{ type: 'subscribe', sport: 'football' }]);
      expect(onResync.mock.calls).toEqual([[['user.1']], [['sport.football']]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes when the browser goes offline, says so, and resumes at once when it is back', async () => {
    const network = (online: boolean) => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
      window.dispatchEvent(new Event(online ? 'online' : 'offline'));
    };
    try {
      const { onResync } = renderSocket();
      const first = await nextSocket();
      greet(first, { user: 3, sport: 5 });
      expect(status()).toBe('open');
      onResync.mockClear();

      act(() => network(false));
      expect(status()).toBe('closed');
      expect(first.readyState).toBe(FakeWebSocket.CLOSED);

      // Back online: a new socket at once (no backoff), resuming from the cursors.
      act(() => network(true));
      const second = await nextSocket(2);
      expect(status()).toBe('connecting');
      act(() => {
        second.open();
        second.receive({ type: 'hello', groups: { 'user.1': 4 } });
      });
      expect(second.sentMessages()).toEqual([
        { type: 'resume', cursors: { 'user.1': 3 } },
        { type: 'subscribe', sport: 'football', cursor: 5 },
      ]);
      act(() =>
        second.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 5 } }),
      );
      expect(status()).toBe('open');
      expect(onResync).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });
});
