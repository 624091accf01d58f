import { describe, expect, it } from 'vitest';

import {
  isLiveEvent,
  liveSocketUrl,
  parseServerMessage,
  reconnectDelay,
  unavailableDelay,
} from './protocol';

describe('reconnectDelay', () => {
  it('doubles from 1 s, with jitter between half and all of it', () => {
    expect(reconnectDelay(0, () => 0)).toBe(500);
    expect(reconnectDelay(0, () => 1)).toBe(1000);
    expect(reconnectDelay(3, () => 1)).toBe(8000);
    expect(reconnectDelay(3, () => 0.5)).toBe(6000);
  });

  it('never waits more than 30 s, however many attempts failed', () => {
    for (const attempt of [5, 6, 20, 1000]) {
      expect(reconnectDelay(attempt, () => 1)).toBe(30_000);
      expect(reconnectDelay(attempt, () => 0)).toBe(15_000);
    }
  });
});

describe('unavailableDelay', () => {
  it('comes back after 4 to 5 s on every attempt: at most one reconnect per 5 s, none later', () => {
    expect(unavailableDelay(() => 0)).toBe(4000);
    expect(unavailableDelay(() => 1)).toBe(5000);
    expect(unavailableDelay(() => 0.5)).toBe(4500);
  });
});

describe('protocol helpers', () => {
  it('tells events from sequenced control messages', () => {
    const vote = { type: 'vote.changed', group: 'sport.soccer', seq: 3, data: { votes: [] } };
    expect(isLiveEvent(vote as never)).toBe(true);
    expect(isLiveEvent({ type: 'skipped', group: 'sport.soccer', seq: 4 })).toBe(false);
    const snapshot = { leaderboards: {}, stats: { nominations: 0, votes: 0 } };
    expect(
      isLiveEvent({ type: 'snapshot', group: 'sport.soccer', seq: 4, data: snapshot as never }),
    ).toBe(false);
  });

  it('addresses /ws/ on the page origin, wss under https', () => {
    expect(liveSocketUrl({ protocol: 'http:', host: 'localhost:8000' })).toBe(
      'ws://localhost:8000/ws/',
    );
    expect(liveSocketUrl({ protocol: 'https:', host: 'scout.example' })).toBe(
      'wss://scout.example/ws/',
    );
  });

  it('reads JSON objects with a type and ignores anything else', () => {
    expect(parseServerMessage('{"type":"pong"}')).toEqual({ type: 'pong' });
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage('[1,2]')).toBeNull();
    expect(parseServerMessage(new ArrayBuffer(2))).toBeNull();
  });
});
