import { describe, expect, it } from 'vitest';

import { LiveSession } from './live-session';
import type { LiveEvent, LiveSnapshot } from './protocol';

function setup() {
  const sent: unknown[] = [];
  const applied: string[] = [];
  const resynced: [string[], string][] = [];
  const session = new LiveSession('football', {
    send: (message) => sent.push(message),
    onEvent: (event) => applied.push(`${event.type}#${event.seq}`),
    onResync: (groups, cause) => resynced.push([groups, cause]),
    onReady: () => undefined,
  });
  return { session, sent, applied, resynced };
}

const vote = (seq: number): LiveEvent => ({
  type: 'vote.changed',
  group: 'sport.football',
  seq,
  sport: 'football',
  data: { votes: [{ nominationId: 1, voteCount: seq, version: seq }] },
});

const snapshot: LiveSnapshot = {
  leaderboards: {},
  stats: { nominations: 1, votes: 2, nominationsNeedingVotes: 0 },
};

/** A first connection at sport.football `sport`, then the connection is lost. */
function connectedOnceAt(live: ReturnType<typeof setup>, sport: number) {
  const { session, sent, applied, resynced } = live;
  session.receive({ type: 'hello', epoch: 'e', groups: { 'user.1': 0 } });
  session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': sport } });
  session.disconnected();
  sent.length = 0;
  applied.length = 0;
  resynced.length = 0;
}

describe('LiveSession: the subscribe carries the cursor', () => {
  it('subscribes without a cursor when it holds none', () => {
    const { session, sent } = setup();
    session.receive({ type: 'hello', epoch: 'e', groups: { 'user.1': 0 } });
    expect(sent).toEqual([{ type: 'subscribe', sport: 'football' }]);
  });

  it('resumes in the subscribe: the replay follows at once, with no resume of its own', () => {
    const live = setup();
    const { session, sent, applied, resynced } = live;
    connectedOnceAt(live, 10);
    session.receive({ type: 'hello', epoch: 'e', groups: { 'user.1': 0 } });
    expect(sent).toEqual([{ type: 'subscribe', sport: 'football', cursor: 10 }]);
    // The server starts the socket at the client's cursor and replays what followed.
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 10 } });
    for (const seq of [11, 12, 13]) session.receive(vote(seq));
    session.receive({ type: 'resumed', groups: { 'sport.football': 13 } });
    session.receive(vote(14));
    expect(applied).toEqual([
      'vote.changed#11',
      'vote.changed#12',
      'vote.changed#13',
      'vote.changed#14',
    ]);
    expect(sent).toHaveLength(1);
    expect(resynced).toEqual([]);
  });

  it('takes a resync past the horizon, and the snapshot after it', () => {
    const live = setup();
    const { session, applied, resynced } = live;
    connectedOnceAt(live, 10);
    session.receive({ type: 'hello', epoch: 'e', groups: { 'user.1': 0 } });
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 10 } });
    session.receive({
      type: 'resync',
      groups: ['sport.football'],
      cursors: { 'sport.football': 90 },
    });
    session.receive({ type: 'snapshot', group: 'sport.football', seq: 90, data: snapshot });
    session.receive(vote(91));
    expect(resynced).toEqual([[['sport.football'], 'lost']]);
    expect(applied).toEqual(['stats.changed#90', 'vote.changed#91']);
    expect(session.cursor('sport.football')).toBe(91);
  });

  it('sends no cursor of another epoch', () => {
    const live = setup();
    const { session, sent } = live;
    connectedOnceAt(live, 10);
    session.receive({ type: 'hello', epoch: 'f', groups: { 'user.1': 0 } });
    expect(sent).toEqual([{ type: 'subscribe', sport: 'football' }]);
  });

  it('carries the cursor of a sport it switches back to', () => {
    const { session, sent } = setup();
    session.receive({ type: 'hello', epoch: 'e', groups: { 'user.1': 0 } });
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 7 } });
    session.setSport('hockey');
    session.receive({ type: 'subscribed', sport: 'hockey', groups: { 'sport.hockey': 3 } });
    session.setSport('football');
    expect(sent.slice(1)).toEqual([
      { type: 'subscribe', sport: 'hockey' },
      { type: 'subscribe', sport: 'football', cursor: 7 },
    ]);
  });
});
