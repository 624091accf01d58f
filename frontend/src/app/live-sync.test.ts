import { QueryClient } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { LiveEvent, LiveEventMap, LiveEventType } from '@/lib/live/protocol';
import { adminKeys } from '@/features/admin/api/admin-keys';
import { useIncomingStore } from '@/features/nominations/api/incoming';
import { nominationKeys, voteMutationKey } from '@/features/nominations/api/nomination-keys';
import { flattenPages, type PagedData } from '@/features/nominations/api/paged';
import type { Nomination, ScoutRank, Stats } from '@/features/nominations/api/types';
import { notificationKeys } from '@/features/notifications/api/notification-keys';
import { profileKeys } from '@/features/profile/api/keys';
import { feedKeys, followKeys } from '@/features/social/api/keys';
import { wallKeys } from '@/features/wall/api/wall-keys';
import { queryConfig } from '@/lib/query-client';
import { makeNomination } from '@/testing/nomination-factory';
import { paged } from '@/testing/paged';

import { applyLiveEvent, resyncLiveGroups } from './live-sync';

let seq = 0;
function event<T extends LiveEventType>(
  type: T,
  data: LiveEventMap[T],
  group = 'sport.football',
): LiveEvent {
  seq += 1;
  const sport = group.startsWith('sport.') ? group.slice('sport.'.length) : undefined;
  return { type, group, seq, sport, data } as LiveEvent;
}

const without = ({ hasVoted: _hasVoted, ...rest }: Nomination) => rest;

const listKey = nominationKeys.list({ sport: 'football', q: '' });
const searchKey = nominationKeys.list({ sport: 'football', q: 'real' });
const needingKey = nominationKeys.needingVotes('football');
const recentKey = nominationKeys.recent('football');
const playersKey = nominationKeys.leaderboardPlayers('football');
const mineKey = nominationKeys.byUser(90);

let queryClient: QueryClient;
const target = makeNomination(7, { voteCount: 2, hasVoted: true });
const other = makeNomination(8, { voteCount: 4 });

/** Every cached copy of nomination 7. */
function copiesOfTarget(): Nomination[] {
  const fromPaged = (key: readonly unknown[]) =>
    flattenPages(queryClient.getQueryData<PagedData<Nomination>>(key)).filter((n) => n.id === 7);
  return [
    ...fromPaged(listKey),
    ...fromPaged(searchKey),
    ...fromPaged(needingKey),
    ...fromPaged(mineKey),
    ...(queryClient.getQueryData<Nomination[]>(recentKey) ?? []).filter((n) => n.id === 7),
    ...(queryClient.getQueryData<Nomination[]>(playersKey) ?? []).filter((n) => n.id === 7),
    queryClient.getQueryData<Nomination>(nominationKeys.detail(7))!,
  ];
}

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: queryConfig });
  act(() => useIncomingStore.setState({ byList: {} }));
  // Nomination 7 sits in every kind of cached read, on the second page of the long list.
  queryClient.setQueryData(listKey, paged([other], [target]));
  queryClient.setQueryData(searchKey, paged([target]));
  queryClient.setQueryData(needingKey, paged([target, other]));
  queryClient.setQueryData(mineKey, paged([target]));
  queryClient.setQueryData(recentKey, [other, target]);
  queryClient.setQueryData(playersKey, [other, target]);
  queryClient.setQueryData(nominationKeys.detail(7), target);
});

/** A `vote.changed` of [nominationId, voteCount, version] counts. */
function votes(...counts: [number, number, number][]) {
  return event('vote.changed', {
    votes: counts.map(([nominationId, voteCount, version]) => ({
      nominationId,
      voteCount,
      version,
    })),
  });
}

/** A read of the recent grid on its way: `answers[i]` answers its i-th request. */
function readRecentOnItsWay() {
  const answers: ((value: Nomination[]) => void)[] = [];
  const read = queryClient.fetchQuery({
    queryKey: recentKey,
    queryFn: () => new Promise<Nomination[]>((resolve) => answers.push(resolve)),
    staleTime: 0,
  });
  return { answers, read };
}

/** Once no read of the recent grid is on its way, it holds these nominations, in order. */
async function expectRecentOnceRead(ids: number[]) {
  await vi.waitFor(() => expect(queryClient.getQueryState(recentKey)?.fetchStatus).toBe('idle'));
  expect(queryClient.getQueryData<Nomination[]>(recentKey)!.map((n) => n.id)).toEqual(ids);
}

describe('applyLiveEvent', () => {
  it('moves the vote count of every cached copy of the nomination, keeping hasVoted', () => {
    const untouched = queryClient.getQueryData(nominationKeys.detail(7));
    applyLiveEvent(queryClient, votes([7, 9, 1]));

    const copies = copiesOfTarget();
    expect(copies).toHaveLength(7);
    for (const copy of copies) expect(copy).toMatchObject({ voteCount: 9, hasVoted: true });
    expect(queryClient.getQueryData(nominationKeys.detail(7))).not.toBe(untouched);
    // Other nominations keep their objects, so their cards do not re-render.
    expect(queryClient.getQueryData<Nomination[]>(recentKey)![0]).toBe(other);
  });

  it('leaves the count alone while the reader’s own vote on it is on its way', async () => {
    let settle = () => {};
    const gate = new Promise<void>((resolve) => (settle = resolve));
    const vote = queryClient.getMutationCache().build(queryClient, {
      mutationKey: voteMutationKey,
      mutationFn: () => gate,
    });
    const running = vote.execute({ nominationId: 7, playerName: 'X', vote: false });
    applyLiveEvent(queryClient, votes([7, 1, 1]));
    for (const copy of copiesOfTarget()) expect(copy.voteCount).toBe(2);
    settle();
    await running;
    applyLiveEvent(queryClient, votes([7, 1, 1]));
    for (const copy of copiesOfTarget()) expect(copy.voteCount).toBe(1);
  });

  it('applies every count of a merged event and ignores a count older than one applied', () => {
    applyLiveEvent(queryClient, votes([7, 5, 10], [8, 3, 4]));
    for (const copy of copiesOfTarget()) expect(copy.voteCount).toBe(5);
    expect(queryClient.getQueryData<Nomination[]>(recentKey)![0].voteCount).toBe(3);

    // Sent before the one above by another process, arriving after it.
    applyLiveEvent(queryClient, votes([7, 4, 9], [8, 2, 3]));
    for (const copy of copiesOfTarget()) expect(copy.voteCount).toBe(5);
    expect(queryClient.getQueryData<Nomination[]>(recentKey)![0].voteCount).toBe(3);

    applyLiveEvent(queryClient, votes([7, 6, 11]));
    for (const copy of copiesOfTarget()) expect(copy.voteCount).toBe(6);
  });

  it('applies a burst of 200 vote events completely, the last one winning', () => {
    const counts: number[] = [];
    const unsubscribe = queryClient.getQueryCache().subscribe(({ query, type }) => {
      if (type === 'updated' && query.queryHash === JSON.stringify(nominationKeys.detail(7))) {
        counts.push((query.state.data as Nomination).voteCount);
      }
    });
    for (let count = 1; count <= 200; count += 1) {
      applyLiveEvent(queryClient, votes([7, count, count]));
      applyLiveEvent(queryClient, votes([8, count + 1, count]));
    }
    unsubscribe();
    expect(counts).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    for (const copy of copiesOfTarget()) expect(copy.voteCount).toBe(200);
    expect(queryClient.getQueryData<Nomination[]>(recentKey)![0].voteCount).toBe(201);
  });

  it('holds a new nomination back for the long lists and shows it in the recent grid', () => {
    const created = makeNomination(20, { player: { name: 'Nuevo', club: 'Real Madrid' } });
    applyLiveEvent(queryClient, event('nomination.created', without(created)));

    const recent = queryClient.getQueryData<Nomination[]>(recentKey)!;
    expect(recent[0]).toMatchObject({ id: 20, hasVoted: false });
    expect(flattenPages(queryClient.getQueryData<PagedData<Nomination>>(mineKey))[0].id).toBe(20);
    const queued = useIncomingStore.getState().byList;
    expect(Object.values(queued).map((items) => items.map((n) => n.id))).toEqual([
      [20],
      [20],
      [20],
    ]);
    // The long lists themselves are not shifted.
    expect(
      flattenPages(queryClient.getQueryData<PagedData<Nomination>>(listKey)).map((n) => n.id),
    ).toEqual([8, 7]);

    // A second copy of the event (another group) changes nothing.
    applyLiveEvent(queryClient, event('nomination.created', without(created), 'admins'));
    expect(
      queryClient.getQueryData<Nomination[]>(recentKey)!.filter((n) => n.id === 20),
    ).toHaveLength(1);
  });

  it('reads the recent grid again when a read on its way would land over a new nomination', async () => {
    const created = makeNomination(20, { player: { name: 'Nuevo' } });
    const before = queryClient.getQueryData<Nomination[]>(recentKey)!;
    // The first read after connecting is on its way: it read the database before the nomination.
    const { answers, read } = readRecentOnItsWay();

    applyLiveEvent(queryClient, event('nomination.created', without(created)));
    expect(answers).toHaveLength(2);
    answers[0](before);
    answers[1]([created, ...before]);
    await read.catch(() => undefined);
    await expectRecentOnceRead([20, ...before.map((n) => n.id)]);
  });

  it('reads the recent grid again after its first read, which left before a new nomination', async () => {
    const created = makeNomination(20, { player: { name: 'Nuevo' } });
    const before = queryClient.getQueryData<Nomination[]>(recentKey)!;
    queryClient.removeQueries({ queryKey: recentKey, exact: true });
    // The page's first read of the grid is on its way (nothing cached yet): it read the
    // database before the nomination, and the event finds nothing to insert into.
    const { answers, read } = readRecentOnItsWay();

    applyLiveEvent(queryClient, event('nomination.created', without(created)));
    expect(answers).toHaveLength(1);
    answers[0](before);
    await read;
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]([created, ...before]);
    await expectRecentOnceRead([20, ...before.map((n) => n.id)]);
  });

  it('keeps a new nomination out of a search it does not match and of other sports', () => {
    const created = makeNomination(21, { player: { name: 'Zed', club: 'Ajax' } });
    applyLiveEvent(queryClient, event('nomination.created', without(created)));
    expect(Object.keys(useIncomingStore.getState().byList)).toHaveLength(2);

    const hockey = makeNomination(22, { player: { sport: 'hockey' } });
    applyLiveEvent(queryClient, event('nomination.created', without(hockey), 'sport.hockey'));
    expect(queryClient.getQueryData<Nomination[]>(recentKey)!.map((n) => n.id)).toEqual([21, 8, 7]);
  });

  it('takes an edit into every copy and drops a rejected nomination from community lists', () => {
    const edited = { ...without(target), player: { ...target.player, name: 'Renamed' } };
    applyLiveEvent(queryClient, event('nomination.updated', edited));
    for (const copy of copiesOfTarget()) {
      expect(copy).toMatchObject({ hasVoted: true, player: { name: 'Renamed' } });
    }

    applyLiveEvent(
      queryClient,
      event('nomination.updated', { ...edited, status: 'rejected' }, 'user.90'),
    );
    expect(
      flattenPages(queryClient.getQueryData<PagedData<Nomination>>(listKey)).map((n) => n.id),
    ).toEqual([8]);
    expect(queryClient.getQueryData<Nomination[]>(recentKey)!.map((n) => n.id)).toEqual([8]);
    // The nominator's own list and the detail keep it, now rejected.
    expect(flattenPages(queryClient.getQueryData<PagedData<Nomination>>(mineKey))[0].status).toBe(
      'rejected',
    );
    expect(queryClient.getQueryData<Nomination>(nominationKeys.detail(7))!.status).toBe('rejected');
  });

  it('removes a nomination from the community lists and reads its detail again', () => {
    applyLiveEvent(queryClient, event('nomination.removed', { id: 7 }));
    expect(
      flattenPages(queryClient.getQueryData<PagedData<Nomination>>(needingKey)).map((n) => n.id),
    ).toEqual([8]);
    expect(queryClient.getQueryData<Nomination[]>(playersKey)!.map((n) => n.id)).toEqual([8]);
    expect(queryClient.getQueryState(nominationKeys.detail(7))!.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(mineKey)!.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(listKey)!.isInvalidated).toBe(false);
  });

  it('writes the pushed leaderboards and stats whole', () => {
    const scouts: ScoutRank[] = [{ id: 9, name: 'Nora', username: 'nora', nominationCount: 3 }];
    // Board entries as pushed: the nomination without hasVoted, with its place.
    const first = { rank: 1, score: 30, movement: null };
    const second = { rank: 2, score: 4, movement: 0 };
    const players = [
      { ...without(target), voteCount: 30, ...first },
      { ...without(other), ...second },
    ];
    // The trending and weekly boards' events leave the all-time board alone.
    applyLiveEvent(queryClient, event('leaderboard.changed', { board: 'trending', players }));
    expect(queryClient.getQueryData<Nomination[]>(playersKey)![0].voteCount).not.toBe(30);
    applyLiveEvent(queryClient, event('leaderboard.changed', { board: 'all', players, scouts }));
    expect(queryClient.getQueryData<Nomination[]>(playersKey)).toEqual([
      { ...target, voteCount: 30, ...first },
      { ...other, ...second },
    ]);
    expect(queryClient.getQueryData(nominationKeys.leaderboardScouts('football'))).toEqual(scouts);
    // Each board's event goes to its own cache, with the reader's hasVoted kept.
    expect(
      queryClient.getQueryData<Nomination[]>(
        nominationKeys.leaderboardPlayers('football', 'trending'),
      ),
    ).toEqual([
      { ...target, voteCount: 30, ...first },
      { ...other, ...second },
    ]);

    // The weekly board turning to a new week reads the Player of the Week history again.
    const historyKey = nominationKeys.weeklyHistory('football');
    queryClient.setQueryData(historyKey, { pages: [], pageParams: [] });
    const weekly = (week: string) =>
      event('leaderboard.changed', { board: 'weekly', week, resetsAt: '', players: [] });
    applyLiveEvent(queryClient, weekly('2025-03-10'));
    applyLiveEvent(queryClient, weekly('2025-03-10'));
    expect(queryClient.getQueryState(historyKey)!.isInvalidated).toBe(false);
    expect(
      queryClient.getQueryData(nominationKeys.leaderboardPlayers('football', 'weekly')),
    ).toEqual([]);
    applyLiveEvent(queryClient, weekly('2025-03-17'));
    expect(queryClient.getQueryState(historyKey)!.isInvalidated).toBe(true);

    const stats: Stats = { nominations: 3, votes: 40, nominationsNeedingVotes: 1 };
    applyLiveEvent(queryClient, event('stats.changed', stats));
    expect(queryClient.getQueryData(nominationKeys.stats('football'))).toEqual(stats);
  });

  it('marks the feed stale on new activity and updates the points of the profile', () => {
    queryClient.setQueryData(feedKeys.list({ sport: 'football', following: false }), { pages: [] });
    queryClient.setQueryData(profileKeys.me(), { id: 1, points: 3 });
    applyLiveEvent(
      queryClient,
      event('activity.created', {
        id: 1,
        userId: 2,
        activityType: 'vote_cast',
        relatedUserId: null,
        relatedPlayerId: null,
        relatedNominationId: 7,
        metadata: {},
        createdAt: '2025-03-07T12:00:00Z',
        user: { id: 2, name: 'A', username: 'a' },
      }),
    );
    expect(
      queryClient.getQueryState(feedKeys.list({ sport: 'football', following: false }))!
        .isInvalidated,
    ).toBe(true);

    applyLiveEvent(
      queryClient,
      event('profile.changed', { points: 12, currentStreak: 2, longestStreak: 5 }, 'user.1'),
    );
    expect(queryClient.getQueryData(profileKeys.me())).toEqual({ id: 1, points: 12 });
  });
});

describe('resyncLiveGroups', () => {
  it('reads again what a sport group or a user group feeds', () => {
    resyncLiveGroups(queryClient, ['sport.football']);
    expect(queryClient.getQueryState(listKey)!.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(nominationKeys.detail(7))!.isInvalidated).toBe(true);

    const fresh = new QueryClient({ defaultOptions: queryConfig });
    fresh.setQueryData(mineKey, paged([target]));
    fresh.setQueryData(listKey, paged([target]));
    resyncLiveGroups(fresh, ['user.90']);
    expect(fresh.getQueryState(mineKey)!.isInvalidated).toBe(true);
    expect(fresh.getQueryState(listKey)!.isInvalidated).toBe(false);
  });

  it("reads again, from the table, what each kind of group's events write", () => {
    const reads = {
      admin: adminKeys.pending(),
      bell: notificationKeys.list(),
      ticker: wallKeys.activity('football'),
      follows: followKeys.userStatus(55),
    };
    const stale = (groups: string[]) => {
      const fresh = new QueryClient({ defaultOptions: queryConfig });
      for (const key of Object.values(reads)) fresh.setQueryData(key, {});
      resyncLiveGroups(fresh, groups);
      return Object.entries(reads)
        .filter(([, key]) => fresh.getQueryState(key)!.isInvalidated)
        .map(([name]) => name);
    };
    expect(stale(['sport.football'])).toEqual(['admin', 'ticker']);
    expect(stale(['user.1'])).toEqual(['bell', 'follows']);
    expect(stale(['admins'])).toEqual(['admin']);
    expect(stale(['nomination.7'])).toEqual([]);
  });
});

describe('the reader’s own events from another tab', () => {
  it('vote.own sets VOTE/VOTED and the count in every cached copy, older versions ignored', () => {
    applyLiveEvent(
      queryClient,
      event('vote.own', { nominationId: 7, voteCount: 1, version: 20, hasVoted: false }, 'user.90'),
    );
    for (const copy of copiesOfTarget())
      expect(copy).toMatchObject({ voteCount: 1, hasVoted: false });

    // An older state arriving late changes nothing.
    applyLiveEvent(
      queryClient,
      event('vote.own', { nominationId: 7, voteCount: 2, version: 19, hasVoted: true }, 'user.90'),
    );
    for (const copy of copiesOfTarget())
      expect(copy).toMatchObject({ voteCount: 1, hasVoted: false });

    applyLiveEvent(
      queryClient,
      event('vote.own', { nominationId: 7, voteCount: 2, version: 21, hasVoted: true }, 'user.90'),
    );
    for (const copy of copiesOfTarget())
      expect(copy).toMatchObject({ voteCount: 2, hasVoted: true });
    expect(queryClient.getQueryData<Nomination[]>(recentKey)![0]).toBe(other);
  });

  it('follow.own sets the player’s or the scout’s Follow state', () => {
    const playerKey = ['follow', 'status', { playerId: 3 }];
    const scoutKey = followKeys.userStatus(12);
    queryClient.setQueryData(playerKey, { isFollowing: false });
    queryClient.setQueryData(scoutKey, { isFollowing: true });

    applyLiveEvent(
      queryClient,
      event('follow.own', { playerId: 3, userId: null, following: true }, 'user.90'),
    );
    expect(queryClient.getQueryData(playerKey)).toEqual({ isFollowing: true });
    expect(queryClient.getQueryData(scoutKey)).toEqual({ isFollowing: true });

    applyLiveEvent(
      queryClient,
      event('follow.own', { playerId: null, userId: 12, following: false }, 'user.90'),
    );
    expect(queryClient.getQueryData(playerKey)).toEqual({ isFollowing: true });
    expect(queryClient.getQueryData(scoutKey)).toEqual({ isFollowing: false });
  });

  it('follow.own wins over a read of the status that left before it', async () => {
    const playerKey = ['follow', 'status', { playerId: 5 }];
    queryClient.setQueryData(playerKey, { isFollowing: true });
    // A refetch on its way (it left while following), answering after the live event.
    let answer: (value: { isFollowing: boolean }) => void = () => {};
    const read = queryClient.fetchQuery({
      queryKey: playerKey,
      queryFn: () => new Promise<{ isFollowing: boolean }>((resolve) => (answer = resolve)),
      staleTime: 0,
    });

    applyLiveEvent(
      queryClient,
      event('follow.own', { playerId: 5, userId: null, following: false }, 'user.90'),
    );
    answer({ isFollowing: true });
    await read.catch(() => undefined);

    expect(queryClient.getQueryData(playerKey)).toEqual({ isFollowing: false });
    expect(queryClient.getQueryState(playerKey)?.fetchStatus).toBe('idle');
  });
});
