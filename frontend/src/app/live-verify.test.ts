import { hashKey, QueryClient, type QueryKey } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { useIncomingStore } from '@/features/nominations/api/incoming';
import { nominationKeys } from '@/features/nominations/api/nomination-keys';
import type { PagedData } from '@/features/nominations/api/paged';
import type { Nomination, Stats } from '@/features/nominations/api/types';
import { notificationKeys } from '@/features/notifications/api/notification-keys';
import type { Notification, Notifications } from '@/features/notifications/api/types';
import { profileKeys } from '@/features/profile/api/keys';
import { ApiError } from '@/lib/api-client';
import type { LiveEvent, LiveEventMap, LiveEventType } from '@/lib/live/protocol';
import { boardKeys, followKeys } from '@/lib/query-keys';
import { byVotes, topOf } from '@/lib/ranks';
import { queryConfig } from '@/lib/query-client';
import { makeNomination } from '@/testing/nomination-factory';
import { paged } from '@/testing/paged';

import { applyLiveEvent } from './live-sync';

/*
 * Every live write checked as Zulip's verify_action checks its events: a fake server holds
 * state A and the cache holds every read of it; the server moves to state B and publishes the
 * event B's change publishes; the app applies it; then every cached read must equal what a
 * fresh read of B answers (reads the write marked stale are read again, against B, first).
 */

const SPORT = 'football';
const READER = 1; // the signed-in member
const NOMINATOR = 90;
const LIVE = new Set(['pending', 'approved']);

type Profile = { id: number; points: number };

/** What the fake server knows, for the reader. */
type State = {
  nominations: Nomination[];
  stats: Stats;
  follows: { players: number[] };
  profile: Profile;
  notifications: Notifications;
};

/** A nomination as the reader may see it: live ones, and their own ones unless hidden. */
function visible(nomination: Nomination, viewer: number) {
  if (LIVE.has(nomination.status)) return true;
  return nomination.nominatedBy.id === viewer && nomination.status !== 'hidden';
}

const NOT_FOUND = Symbol('404');

/** The reads the cache holds, and what each answers against a state. */
function reads(viewer: number): [QueryKey, (state: State) => unknown][] {
  const live = (state: State) =>
    state.nominations
      .filter((n) => LIVE.has(n.status) && n.player.sport === SPORT)
      .sort((a, b) => b.id - a.id);
  return [
    [nominationKeys.list({ sport: SPORT, q: '' }), (s) => paged(live(s))],
    [nominationKeys.needingVotes(SPORT), (s) => paged(live(s).filter((n) => n.voteCount < 5))],
    [nominationKeys.recent(SPORT), (s) => live(s).slice(0, 6)],
    [
      nominationKeys.byUser(NOMINATOR),
      (s) =>
        paged(
          s.nominations
            .filter((n) => n.nominatedBy.id === NOMINATOR && visible(n, viewer))
            .filter((n) => viewer === NOMINATOR || LIVE.has(n.status))
            .sort((a, b) => b.id - a.id),
        ),
    ],
    ...[7, 8].map((id): [QueryKey, (state: State) => unknown] => [
      nominationKeys.detail(id),
      (s) => {
        const found = s.nominations.find((n) => n.id === id);
        return found && visible(found, viewer) ? found : NOT_FOUND;
      },
    ]),
    [boardKeys.players(SPORT, 'all'), (s) => topOf(live(s), byVotes)],
    [nominationKeys.stats(SPORT), (s) => s.stats],
    [followKeys.playerStatus(1007), (s) => ({ isFollowing: s.follows.players.includes(1007) })],
    [profileKeys.me(), (s) => s.profile],
    [notificationKeys.list(), (s) => s.notifications],
  ];
}

const stateA = (): State => ({
  nominations: [
    makeNomination(7, { voteCount: 2, version: 2, hasVoted: true }),
    makeNomination(8, { voteCount: 4, version: 4 }),
    makeNomination(9, { voteCount: 1, version: 1, status: 'approved' }),
  ],
  stats: { nominations: 3, nominationsNeedingVotes: 2, votes: 7 },
  follows: { players: [] },
  profile: { id: READER, points: 10 },
  notifications: { items: [], unreadCount: 0 },
});

let queryClient: QueryClient;
let seq = 0;

function event<T extends LiveEventType>(
  type: T,
  data: LiveEventMap[T],
  group = `sport.${SPORT}`,
): LiveEvent {
  seq += 1;
  const sport = group.startsWith('sport.') ? group.slice('sport.'.length) : undefined;
  return { type, group, seq, sport, data } as LiveEvent;
}

/** The event shape of a nomination (no per-viewer hasVoted). */
const pushed = ({ hasVoted: _hasVoted, ...rest }: Nomination) => rest;

/** The all-time board's event as the server pushes it for state `b`. */
const allTimeBoard = (b: State) =>
  event('leaderboard.changed', {
    board: 'all',
    players: topOf(
      b.nominations.filter((n) => LIVE.has(n.status) && n.player.sport === SPORT),
      byVotes,
    ).map(pushed),
    scouts: [],
  } as unknown as LiveEventMap['leaderboard.changed']);

/** Fills the cache with every read of `state`, as the screens would have read them. */
function readAll(state: State, viewer: number) {
  for (const [queryKey, read] of reads(viewer)) {
    const data = read(state);
    if (data !== NOT_FOUND) queryClient.setQueryData(queryKey, data);
  }
}

/** The long lists hold new nominations back as "N new": they count as shown for the check. */
function withIncoming(queryKey: QueryKey, data: unknown): unknown {
  const queued = useIncomingStore.getState().byList[hashKey(queryKey)];
  if (!queued?.length) return data;
  const list = data as PagedData<Nomination>;
  const [first, ...rest] = list.pages;
  return { ...list, pages: [{ ...first, items: [...queued, ...first.items] }, ...rest] };
}

/**
 * Applies `published` and compares every cached read with a fresh read of `b`; reads the write
 * marked stale are read again against `b` first. A read `b` answers with 404 must be in error.
 */
async function verify(b: State, published: LiveEvent[], viewer = READER) {
  latest = b;
  for (const one of published) applyLiveEvent(queryClient, one, { viewerId: viewer });
  for (const [queryKey, read] of reads(viewer)) {
    const query = queryClient.getQueryCache().find({ queryKey, exact: true });
    if (!query) continue;
    const answer = read(b);
    if (query.state.isInvalidated) {
      await queryClient
        .fetchQuery({
          queryKey,
          queryFn: () => {
            if (answer === NOT_FOUND) throw new ApiError('Nomination not found', { status: 404 });
            return answer;
          },
          staleTime: 0,
        })
        .catch(() => undefined);
    }
    const where = JSON.stringify(queryKey);
    if (answer !== NOT_FOUND && hashKey(queryKey) === NEEDING) {
      // Known divergence, left for a product decision: a nomination that reaches the bar
      // live stays in a loaded "needs votes" list (with its new count) until it is read again,
      // so a card does not vanish under the reader who just voted for it.
      expect(withIncoming(queryKey, query.state.data), where).toEqual(
        stillNeeding(
          answer as PagedData<Nomination>,
          withIncoming(queryKey, query.state.data) as PagedData<Nomination>,
        ),
      );
      continue;
    }
    if (answer === NOT_FOUND) {
      expect(query.state.status, where).toBe('error');
    } else {
      expect(withIncoming(queryKey, query.state.data), where).toEqual(answer);
    }
  }
}

const NEEDING = hashKey(nominationKeys.needingVotes(SPORT));

/** A fresh "needs votes" read, plus the nominations the cached one held that crossed the bar,
 * with their fresh data, in the cached order. */
function stillNeeding(fresh: PagedData<Nomination>, cached: PagedData<Nomination>) {
  const freshIds = new Set(fresh.pages.flatMap((page) => page.items.map((n) => n.id)));
  const byId = new Map(latest.nominations.map((n) => [n.id, n]));
  const items = cached.pages
    .flatMap((page) => page.items)
    .filter((n) => freshIds.has(n.id) || (byId.get(n.id)?.voteCount ?? 0) >= 5)
    .map((n) => byId.get(n.id)!);
  return paged(items);
}

let latest: State;

function change(state: State, id: number, update: Partial<Nomination>): State {
  return {
    ...state,
    nominations: state.nominations.map((n) => (n.id === id ? { ...n, ...update } : n)),
  };
}

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: queryConfig });
  act(() => useIncomingStore.setState({ byList: {} }));
});

describe('every live write leaves the cache as a fresh read of the new state', () => {
  it('vote.changed: another member votes', async () => {
    const a = stateA();
    readAll(a, READER);
    // Nomination 8 reaches 5 votes: it leaves "needs votes" and passes 7... on the board.
    const b = change(a, 8, { voteCount: 5, version: 5 });
    const bumped = change(b, 7, { voteCount: 6, version: 3 });
    await verify(bumped, [
      event('vote.changed', {
        votes: [
          { nominationId: 8, voteCount: 5, version: 5 },
          { nominationId: 7, voteCount: 6, version: 3 },
        ],
      }),
    ]);
  });

  it('vote.own: the reader votes in another tab', async () => {
    const a = stateA();
    readAll(a, READER);
    const b = change(a, 8, { voteCount: 5, version: 5, hasVoted: true });
    await verify(b, [
      event(
        'vote.own',
        { nominationId: 8, voteCount: 5, version: 5, hasVoted: true },
        `user.${READER}`,
      ),
      event('vote.changed', { votes: [{ nominationId: 8, voteCount: 5, version: 5 }] }),
    ]);
  });

  it('follow.own: the reader follows a player in another tab', async () => {
    const a = stateA();
    readAll(a, READER);
    const b = { ...a, follows: { players: [1007] } };
    await verify(b, [
      event('follow.own', { playerId: 1007, userId: null, following: true }, `user.${READER}`),
    ]);
  });

  it('nomination.created: a new nomination in the sport', async () => {
    const a = stateA();
    readAll(a, READER);
    const fresh = makeNomination(10, { nominatedBy: { id: 91, name: 'Neo', username: 'neo' } });
    const b = { ...a, nominations: [...a.nominations, fresh] };
    await verify(b, [event('nomination.created', pushed(fresh)), allTimeBoard(b)]);
  });

  it('nomination.updated: an edit of the player', async () => {
    const a = stateA();
    readAll(a, READER);
    const edited = { ...a.nominations[0].player, club: 'Town FC' };
    const b = change(a, 7, { player: edited });
    await verify(b, [event('nomination.updated', pushed(b.nominations[0]))]);
  });

  it('nomination.removed and .updated: a rejection, seen by a member', async () => {
    const a = stateA();
    readAll(a, READER);
    const b = change(a, 8, { status: 'rejected' });
    await verify(b, [event('nomination.removed', { id: 8 })]);
  });

  it('nomination.removed and .updated: a rejection, seen by its nominator', async () => {
    const a = stateA();
    readAll(a, NOMINATOR);
    const b = change(a, 8, { status: 'rejected' });
    const rejected = b.nominations.find((n) => n.id === 8)!;
    await verify(
      b,
      [
        event('nomination.removed', { id: 8 }),
        event('nomination.updated', pushed(rejected), `user.${NOMINATOR}`),
      ],
      NOMINATOR,
    );
  });

  it('nomination.removed: a takedown, seen by its nominator', async () => {
    const a = stateA();
    readAll(a, NOMINATOR);
    const b = change(a, 7, { status: 'hidden' });
    await verify(
      b,
      [event('nomination.removed', { id: 7 }), event('nomination.removed', { id: 7 }, 'user.90')],
      NOMINATOR,
    );
  });

  it('leaderboard.changed: the all-time board', async () => {
    const a = stateA();
    readAll(a, READER);
    const b = change(a, 9, { voteCount: 9, version: 9 });
    await verify(b, [
      event('vote.changed', { votes: [{ nominationId: 9, voteCount: 9, version: 9 }] }),
      allTimeBoard(b),
    ]);
  });

  it('stats.changed', async () => {
    const a = stateA();
    readAll(a, READER);
    const b = { ...a, stats: { ...a.stats, votes: 8 } };
    await verify(b, [event('stats.changed', b.stats)]);
  });

  it('profile.changed: the reader earns points', async () => {
    const a = stateA();
    readAll(a, READER);
    const b = { ...a, profile: { ...a.profile, points: 35 } };
    await verify(b, [
      event(
        'profile.changed',
        { points: 35, currentStreak: 1, longestStreak: 1 },
        `user.${READER}`,
      ),
    ]);
  });

  it('notification.created: one for the reader', async () => {
    const a = stateA();
    readAll(a, READER);
    const notification: Notification = {
      id: 3,
      type: 'vote_received',
      message: 'Someone voted for Player 7.',
      read: false,
      createdAt: '2025-01-02T10:00:00Z',
      relatedNominationId: 7,
    };
    const b = { ...a, notifications: { items: [notification], unreadCount: 1 } };
    await verify(b, [event('notification.created', notification, `user.${READER}`)]);
  });
});
