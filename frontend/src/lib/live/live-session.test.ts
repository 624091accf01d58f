import { describe, expect, it, vi } from 'vitest';

import { LiveSession } from './live-session';
import type { LiveEvent } from './protocol';

function setup(sport = 'football') {
  const sent: unknown[] = [];
  const applied: string[] = [];
  const resynced: string[][] = [];
  const causes: string[] = [];
  const onReady = vi.fn();
  const session = new LiveSession(sport, {
    send: (message) => sent.push(message),
    onEvent: (event) => applied.push(`${event.group}#${event.seq}`),
    onResync: (groups, cause) => {
      resynced.push(groups);
      causes.push(cause);
    },
    onReady,
  });
  return { session, sent, applied, resynced, causes, onReady };
}

const vote = (group: string, seq: number, voteCount = seq): LiveEvent => ({
  type: 'vote.changed',
  group,
  seq,
  sport: group.replace('sport.', ''),
  data: { votes: [{ nominationId: 1, voteCount, version: voteCount }] },
});

/** Greets and subscribes (user.1 at `user`, sport.football at `sport`), then clears the logs. */
function connect(
  { session, sent, applied, resynced, causes }: ReturnType<typeof setup>,
  { user = 0, sport = 0 } = {},
) {
  session.receive({ type: 'hello', epoch: null, groups: { 'user.1': user } });
  session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': sport } });
  sent.length = 0;
  applied.length = 0;
  resynced.length = 0;
  causes.length = 0;
}

describe('LiveSession', () => {
  it('hands each item of an activity.batch to the screens as its own activity.created', () => {
    const events: LiveEvent[] = [];
    const session = new LiveSession('football', {
      send: () => {},
      onEvent: (event) => events.push(event),
      onResync: () => {},
      onReady: () => {},
    });
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 0 } });
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 0 } });
    const item = (id: number) => ({
      id,
      userId: 2,
      activityType: 'vote_cast',
      relatedUserId: null,
      relatedPlayerId: 3,
      relatedNominationId: 7,
      metadata: { playerName: 'Ada' },
      createdAt: `2025-03-07T12:00:0${id}Z`,
      user: { id: 2, name: 'A', username: 'a' },
    });
    session.receive({
      type: 'activity.batch',
      group: 'sport.football',
      seq: 1,
      sport: 'football',
      data: { items: [item(1), item(2)] },
    });
    expect(events.map((event) => [event.type, event.seq, event.data])).toEqual([
      ['activity.created', 1, item(1)],
      ['activity.created', 1, item(2)],
    ]);
    expect(session.cursor('sport.football')).toBe(1);
  });

  it('subscribes after the greeting, starts from the announced positions and reads again', () => {
    const { session, sent, onReady, resynced, causes } = setup();
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 4 } });
    expect(sent).toEqual([{ type: 'subscribe', sport: 'football' }]);
    expect(onReady).not.toHaveBeenCalled();
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 10 } });
    expect(onReady).toHaveBeenCalledOnce();
    expect(session.cursor('user.1')).toBe(4);
    expect(session.cursor('sport.football')).toBe(10);
    // What was read before the subscription may have missed events: it is read again.
    expect(resynced).toEqual([['user.1'], ['sport.football']]);
    expect(causes).toEqual(['first', 'first']);
  });

  it('applies events once each, in order, per group', () => {
    const live = setup();
    const { session, applied, resynced } = live;
    connect(live, { sport: 10 });
    for (const seq of [11, 12, 12, 10, 13]) session.receive(vote('sport.football', seq));
    session.receive({ type: 'pong' });
    expect(applied).toEqual(['sport.football#11', 'sport.football#12', 'sport.football#13']);
    expect(resynced).toEqual([]);
  });

  it('fills a gap in a sequence by resuming from the cursor', () => {
    const live = setup();
    const { session, sent, applied, resynced } = live;
    connect(live, { sport: 10 });
    session.receive(vote('sport.football', 11));
    session.receive(vote('sport.football', 14));
    session.receive(vote('sport.football', 15));
    expect(sent).toEqual([{ type: 'resume', cursors: { 'sport.football': 11 } }]);
    for (const seq of [12, 13, 14, 15]) session.receive(vote('sport.football', seq));
    session.receive({ type: 'resumed', groups: { 'sport.football': 15 } });
    session.receive(vote('sport.football', 16));
    expect(applied).toEqual([11, 12, 13, 14, 15, 16].map((seq) => `sport.football#${seq}`));
    expect(resynced).toEqual([]);
  });

  it('resumes every group it is behind on after a reconnect, and replays in order', () => {
    const live = setup();
    const { session, sent, applied, resynced } = live;
    connect(live, { user: 3, sport: 10 });
    session.receive(vote('sport.football', 11));
    session.disconnected();
    applied.length = 0;

    // The new connection: the user group moved on, the sport group too.
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 5 } });
    expect(sent).toEqual([
      { type: 'resume', cursors: { 'user.1': 3 } },
      { type: 'subscribe', sport: 'football', cursor: 11 },
    ]);
    // A server that ignores the subscribe's cursor announces its position: the client resumes.
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 14 } });
    expect(sent[2]).toEqual({ type: 'resume', cursors: { 'sport.football': 11 } });

    // A live event past the position comes before the replay: dropped, the replay brings it.
    session.receive(vote('sport.football', 15));
    for (const seq of [12, 13, 14, 15]) session.receive(vote('sport.football', seq));
    session.receive({ type: 'resumed', groups: { 'sport.football': 15 } });
    session.receive(vote('sport.football', 16));
    expect(applied).toEqual([
      'sport.football#12',
      'sport.football#13',
      'sport.football#14',
      'sport.football#15',
      'sport.football#16',
    ]);
    expect(resynced).toEqual([]);
  });

  it('takes the server’s resync: new cursors, and the groups are read again', () => {
    const live = setup();
    const { session, resynced, applied } = live;
    connect(live, { sport: 10 });
    session.disconnected();
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 0 } });
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 5000 } });
    session.receive({
      type: 'resync',
      groups: ['sport.football'],
      cursors: { 'sport.football': 5000 },
    });
    expect(resynced).toEqual([['sport.football']]);
    session.receive(vote('sport.football', 5001));
    expect(applied).toEqual(['sport.football#5001']);
  });

  it('reads again when a resume ends short of where the replay should have brought it', () => {
    const live = setup();
    const { session, resynced } = live;
    connect(live, { sport: 10 });
    session.disconnected();
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 0 } });
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 12 } });
    session.receive(vote('sport.football', 11));
    session.receive({ type: 'resumed', groups: { 'sport.football': 12 } });
    expect(resynced).toEqual([['sport.football']]);
    expect(session.cursor('sport.football')).toBe(12);
  });

  it('reads again when the server’s sequence started over', () => {
    const live = setup();
    const { session, sent, resynced } = live;
    connect(live, { user: 40, sport: 900 });
    session.disconnected();
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 2 } });
    expect(resynced).toEqual([['user.1']]);
    // The server answers a cursor ahead of its sequence with its own position.
    expect(sent).toEqual([{ type: 'subscribe', sport: 'football', cursor: 900 }]);
    expect(session.cursor('user.1')).toBe(2);
  });

  it('switches sport without reconnecting and resumes a sport it comes back to', () => {
    const live = setup();
    const { session, sent, onReady } = live;
    connect(live, { sport: 10 });
    session.setSport('hockey');
    expect(sent).toEqual([{ type: 'subscribe', sport: 'hockey' }]);
    session.receive({ type: 'subscribed', sport: 'hockey', groups: { 'sport.hockey': 3 } });
    expect(onReady).toHaveBeenCalledTimes(2);

    session.setSport('football');
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 20 } });
    expect(sent.at(-1)).toEqual({ type: 'resume', cursors: { 'sport.football': 10 } });
  });

  it('resumes nothing after the server said events were lost, and reads everything again', () => {
    const live = setup();
    const { session, sent, resynced, causes } = live;
    connect(live, { user: 3, sport: 10 });
    session.forget();
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 5 } });
    session.receive({ type: 'subscribed', sport: 'football', groups: { 'sport.football': 20 } });
    expect(sent).toEqual([{ type: 'subscribe', sport: 'football' }]);
    expect(resynced).toEqual([['user.1'], ['sport.football']]);
    expect(causes).toEqual(['lost', 'lost']);
    expect(session.cursor('sport.football')).toBe(20);
  });

  it('forgets the groups a new greeting no longer lists (a role taken away)', () => {
    const live = setup();
    const { session, sent } = live;
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 1, admins: 8 } });
    session.disconnected();
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 1 } });
    expect(session.cursor('admins')).toBeUndefined();
    session.receive({ type: 'hello', epoch: null, groups: { 'user.1': 1, admins: 9 } });
    expect(sent.filter((message) => (message as { type: string }).type === 'resume')).toEqual([]);
  });

  it('waits for the greeting before subscribing to a sport chosen while connecting', () => {
    const { session, sent } = setup();
    session.setSport('soccer');
    expect(sent).toEqual([]);
    session.receive({ type: 'hello', epoch: null, groups: {} });
    expect(sent).toEqual([{ type: 'subscribe', sport: 'soccer' }]);
  });
});
