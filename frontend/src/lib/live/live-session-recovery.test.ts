import { describe, expect, it } from 'vitest';

import { LiveSession } from './live-session';
import type { LiveEvent, LiveSnapshot } from './protocol';

function setup() {
  const sent: unknown[] = [];
  const applied: string[] = [];
  const resynced: [string[], string][] = [];
  const presence: unknown[] = [];
  const reviews: unknown[] = [];
  const session = new LiveSession('football', {
    send: (message) => sent.push(message),
    onEvent: (event) => applied.push(`${event.type}#${event.seq}`),
    onResync: (groups, cause) => resynced.push([groups, cause]),
    onReady: () => undefined,
    onPresence: (count) => presence.push(count),
    onReviews: (marks) => reviews.push(marks),
  });
  return { session, sent, applied, resynced, presence, reviews };
}

const stats = (seq: number): LiveEvent => ({
  type: 'stats.changed',
  group: 'sport.football',
  seq,
  sport: 'football',
  data: { nominations: seq, votes: seq, nominationsNeedingVotes: 0 },
});

const board: LiveSnapshot = {
  leaderboards: { all: { board: 'all', players: [], scouts: [] } as never },
  stats: { nominations: 1, votes: 2, nominationsNeedingVotes: 0 },
};

function greet(session: LiveSession, epoch: string, sport = 5) {
  session.receive({ type: 'hello', epoch, groups: { 'user.1': 0 } });
  session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': sport } });
}

describe('LiveSession recovery', () => {
  it('moves past a skipped state event without applying it or resuming', () => {
    const { session, sent, applied } = setup();
    greet(session, 'a');
    sent.length = 0;
    session.receive({ type: 'skipped', group: 'sport.football', seq: 6 });
    session.receive(stats(7));
    expect(applied).toEqual(['stats.changed#7']);
    expect(session.cursor('sport.football')).toBe(7);
    expect(sent).toEqual([]);
  });

  it('applies the snapshot of the selected sport as the events of each board and the stats', () => {
    const { session, applied } = setup();
    greet(session, 'a');
    session.receive({ type: 'snapshot', group: 'sport.football', seq: 5, data: board });
    session.receive({ type: 'snapshot', group: 'sport.hockey', seq: 9, data: board });
    expect(applied).toEqual(['leaderboard.changed#5', 'stats.changed#5']);
    expect(session.cursor('sport.football')).toBe(5);
  });

  it('resumes across a reconnect of the same data, but not across another epoch', () => {
    const { session, sent, resynced } = setup();
    greet(session, 'a');
    session.receive(stats(6));
    session.disconnected();
    sent.length = 0;
    greet(session, 'a', 9);
    expect(sent).toContainEqual({ type: 'resume', cursors: { 'sport.football': 6 } });

    session.disconnected();
    sent.length = 0;
    resynced.length = 0;
    greet(session, 'b', 2); // Redis lost its data: seq 2 of the new data is not seq 2 of old
    expect(sent.some((message) => (message as { type: string }).type === 'resume')).toBe(false);
    expect(resynced).toContainEqual([['sport.football'], 'lost']);
    expect(session.cursor('sport.football')).toBe(2);
  });

  it('passes presence counts and review marks on', () => {
    const { session, presence, reviews } = setup();
    const count = { scope: 'nomination' as const, id: 7, watching: 3 };
    session.receive({ type: 'presence.changed', data: count });
    session.receive({
      type: 'review.changed',
      data: { reviews: [{ nominationId: 7, name: 'Ann' }] },
    });
    expect(presence).toEqual([count]);
    expect(reviews).toEqual([[{ nominationId: 7, name: 'Ann' }]]);
  });
});
