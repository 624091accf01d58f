import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

import type { BoardKind } from '@/lib/boards';
import { fold } from '@/lib/fold';
import { isSport, type Sport } from '@/stores/sport';

import { NEEDS_VOTES_BELOW, RECENT_NOMINATIONS } from './constants';
import { mapIncoming, queueIncoming } from './incoming';
import { nominationKeys, type NominationListFilters } from './nomination-keys';
import type { PagedData } from './paged';
import type { Nomination, NominationEvent, Player, ScoutRank, Stats } from './types';

/**
 * Every cached copy of a nomination, whatever screen read it: the paged lists (all, needing votes,
 * a scout's), the recent grid, the players leaderboard and the detail. Mutations and live events
 * change a nomination here once and every screen holding it follows.
 */

type Shape = 'paged' | 'array' | 'single';

/** Statuses the community lists show; a rejected nomination only appears to its nominator. */
const COMMUNITY_STATUSES = new Set(['pending', 'approved']);

/** How a query under ['nominations', ...] holds nominations, or null when it holds none. */
function shapeOf(queryKey: QueryKey): Shape | null {
  const [, kind, sub] = queryKey;
  switch (kind) {
    case 'list':
    case 'needing-votes':
    case 'user':
      return 'paged';
    case 'recent':
      return 'array';
    case 'leaderboard':
      return sub === 'players' ? 'array' : null;
    case 'detail':
      return 'single';
    default:
      return null;
  }
}

/** Whether a query shows the community (pending and approved) rather than one scout's own. */
function isCommunity(queryKey: QueryKey): boolean {
  const kind = queryKey[1];
  return kind === 'list' || kind === 'needing-votes' || kind === 'recent' || kind === 'leaderboard';
}

type Mapper = (nomination: Nomination) => Nomination | null;

/** Applies `map` to each nomination of a page list, keeping references when nothing changes. */
function mapItems(items: Nomination[], map: Mapper): Nomination[] {
  let changed = false;
  const next: Nomination[] = [];
  for (const item of items) {
    const mapped = map(item);
    if (mapped !== item) changed = true;
    if (mapped) next.push(mapped);
  }
  return changed ? next : items;
}

function mapData(shape: Shape, data: unknown, map: Mapper): unknown {
  switch (shape) {
    case 'single': {
      // A detail is never dropped from its own cache: a hidden one is refetched instead.
      const nomination = data as Nomination;
      return map(nomination) ?? nomination;
    }
    case 'array':
      return mapItems(data as Nomination[], map);
    case 'paged': {
      const paged = data as PagedData<Nomination>;
      let changed = false;
      const pages = paged.pages.map((page) => {
        const items = mapItems(page.items, map);
        if (items === page.items) return page;
        changed = true;
        return { ...page, items };
      });
      return changed ? { ...paged, pages } : paged;
    }
  }
}

/** The nominations a cached read holds. */
function itemsOf(shape: Shape, data: unknown): Nomination[] {
  switch (shape) {
    case 'single':
      return [data as Nomination];
    case 'array':
      return data as Nomination[];
    case 'paged':
      return (data as PagedData<Nomination>).pages.flatMap((page) => page.items);
  }
}

/** The cached reads under ['nominations', ...] that hold nominations, with their data. */
function* cachedReads(queryClient: QueryClient) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: nominationKeys.all })) {
    const shape = shapeOf(query.queryKey);
    const data = query.state.data;
    if (shape && data !== undefined) yield { queryKey: query.queryKey, shape, data };
  }
}

/**
 * Rewrites every cached nomination through `map` (return the same object to keep it, a new one
 * to replace it, null to drop it from a list). Only queries whose data changed are written.
 */
export function updateCachedNominations(
  queryClient: QueryClient,
  map: Mapper,
  {
    only,
    incoming = !only,
  }: {
    /** Limits the rewrite to some queries. */
    only?: (queryKey: QueryKey) => boolean;
    /** Also rewrites the nominations waiting to come into a list (by default unless `only`). */
    incoming?: boolean;
  } = {},
) {
  for (const { queryKey, shape, data } of cachedReads(queryClient)) {
    if (only && !only(queryKey)) continue;
    const next = mapData(shape, data, map);
    if (next !== data) queryClient.setQueryData(queryKey, next);
  }
  if (incoming) mapIncoming(map);
}

/** One nomination by id, from whichever cached read holds it (the detail first). */
export function findCachedNomination(queryClient: QueryClient, id: number): Nomination | undefined {
  const detail = queryClient.getQueryData<Nomination>(nominationKeys.detail(id));
  if (detail) return detail;
  for (const { shape, data } of cachedReads(queryClient)) {
    const found = itemsOf(shape, data).find((nomination) => nomination.id === id);
    if (found) return found;
  }
  return undefined;
}

const byId = (id: number, update: (nomination: Nomination) => Nomination): Mapper => {
  return (nomination) => (nomination.id === id ? update(nomination) : nomination);
};

/**
 * A live vote count for one nomination, at its version when the event gives it; the reader's
 * own hasVoted is kept.
 */
export function setVoteCount(
  queryClient: QueryClient,
  id: number,
  voteCount: number,
  version?: number,
) {
  updateCachedNominations(
    queryClient,
    byId(id, (nomination) =>
      nomination.voteCount === voteCount &&
      (version === undefined || nomination.version === version)
        ? nomination
        : { ...nomination, voteCount, ...(version === undefined ? {} : { version }) },
    ),
  );
}

/** A nomination's published-comment count, in every cached copy (its cards and details). */
export function setCommentCount(queryClient: QueryClient, id: number, commentCount: number) {
  updateCachedNominations(
    queryClient,
    byId(id, (nomination) =>
      nomination.commentCount === commentCount ? nomination : { ...nomination, commentCount },
    ),
  );
}

/**
 * The reader's vote on a nomination: sets hasVoted and moves the count by one. Applying the same
 * state twice changes nothing, so a rollback never counts twice.
 */
export function setOwnVote(queryClient: QueryClient, id: number, voted: boolean) {
  updateCachedNominations(
    queryClient,
    byId(id, (nomination) =>
      nomination.hasVoted === voted
        ? nomination
        : {
            ...nomination,
            hasVoted: voted,
            voteCount: Math.max(0, nomination.voteCount + (voted ? 1 : -1)),
          },
    ),
  );
}

/** The server's word on the reader's vote: its count and hasVoted, everywhere. */
export function setVoteState(
  queryClient: QueryClient,
  {
    nominationId,
    voteCount,
    hasVoted,
    version,
  }: { nominationId: number; voteCount: number; hasVoted: boolean; version?: number },
) {
  updateCachedNominations(
    queryClient,
    byId(nominationId, (nomination) =>
      nomination.voteCount === voteCount &&
      nomination.hasVoted === hasVoted &&
      (version === undefined || nomination.version === version)
        ? nomination
        : { ...nomination, voteCount, hasVoted, ...(version === undefined ? {} : { version }) },
    ),
  );
}

/** An edited player, in every nomination of it. */
export function setPlayer(queryClient: QueryClient, player: Player) {
  updateCachedNominations(queryClient, (nomination) =>
    nomination.player.id === player.id ? { ...nomination, player } : nomination,
  );
}

/**
 * A nomination changed (edited, approved, rejected): every copy takes the new data and keeps the
 * reader's hasVoted. One that left the community (rejected, or moved to another sport) leaves
 * the community lists of its old sport.
 */
export function replaceNomination(queryClient: QueryClient, event: NominationEvent) {
  const community = COMMUNITY_STATUSES.has(event.status);
  updateCachedNominations(queryClient, (nomination) => {
    if (nomination.id !== event.id) return nomination;
    return { ...event, hasVoted: nomination.hasVoted };
  });
  updateCachedNominations(
    queryClient,
    (nomination) => (nomination.id === event.id ? null : nomination),
    {
      only: (queryKey) =>
        isCommunity(queryKey) && (!community || sportOfKey(queryKey) !== event.player.sport),
      incoming: !community,
    },
  );
}

/**
 * A nomination left the community (rejected, or deleted): out of every community list. The
 * other reads holding it (its detail, its nominator's list) are read again: the nominator and
 * admins may still see it.
 */
export function removeNomination(queryClient: QueryClient, id: number) {
  updateCachedNominations(queryClient, (nomination) => (nomination.id === id ? null : nomination), {
    only: isCommunity,
    incoming: true,
  });
  const holdingIt = new Set<string>();
  for (const { queryKey, shape, data } of cachedReads(queryClient)) {
    if (itemsOf(shape, data).some((nomination) => nomination.id === id)) {
      holdingIt.add(hashKey(queryKey));
    }
  }
  void queryClient.invalidateQueries({
    queryKey: nominationKeys.all,
    predicate: (query) => holdingIt.has(query.queryHash),
  });
}

/** The sport a community query is for (list filters, or the sport at the end of its key). */
function sportOfKey(queryKey: QueryKey): Sport | null {
  for (const part of queryKey) {
    if (isSport(part)) return part;
    if (typeof part === 'object' && part !== null && isSport((part as { sport?: unknown }).sport)) {
      return (part as { sport: Sport }).sport;
    }
  }
  return null;
}

/** The search the server runs for `q` (folded: case, accents and punctuation aside; within one
 * field), for a nomination pushed live. */
export function matchesSearch(nomination: NominationEvent, q: string): boolean {
  if (!q.trim()) return true;
  const text = fold(q);
  if (!text) return false;
  const { player, nominatedBy } = nomination;
  return [player.name, player.position, player.nationality, player.club, nominatedBy.name].some(
    (field) => fold(field).includes(text),
  );
}

/**
 * A new nomination. The recent grid and the nominator's own list take it at once; the long lists
 * (all, needing votes) hold it back as "new" so a reader who has scrolled keeps their place.
 */
export function insertNomination(queryClient: QueryClient, event: NominationEvent) {
  if (findCachedNomination(queryClient, event.id)) {
    replaceNomination(queryClient, event);
    return;
  }
  const nomination: Nomination = { ...event, hasVoted: false };
  const sport = event.player.sport;

  queryClient.setQueryData<PagedData<Nomination>>(
    nominationKeys.byUser(event.nominatedBy.id),
    (data) => data && prependToFirstPage(data, [nomination]),
  );
  if (!COMMUNITY_STATUSES.has(event.status) || !isSport(sport)) return;

  queryClient.setQueryData<Nomination[]>(nominationKeys.recent(sport), (recent) =>
    recent ? [nomination, ...recent].slice(0, Math.max(recent.length, RECENT_NOMINATIONS)) : recent,
  );
  for (const query of queryClient.getQueryCache().findAll({ queryKey: nominationKeys.lists() })) {
    const filters = query.queryKey[2] as NominationListFilters | undefined;
    if (filters?.sport === sport && matchesSearch(event, filters.q) && query.state.data) {
      queueIncoming(query.queryKey, nomination);
    }
  }
  const needing = nominationKeys.needingVotes(sport);
  if (event.voteCount < NEEDS_VOTES_BELOW && queryClient.getQueryData(needing)) {
    queueIncoming(needing, nomination);
  }
}

/** New nominations on top of a paged list (skipping any it already holds). */
export function prependToFirstPage(
  data: PagedData<Nomination>,
  nominations: Nomination[],
): PagedData<Nomination> {
  const present = new Set(data.pages.flatMap((page) => page.items.map((item) => item.id)));
  const fresh = nominations.filter((nomination) => !present.has(nomination.id));
  if (fresh.length === 0 || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first, items: [...fresh, ...first.items] }, ...rest] };
}

type BoardEvent = {
  board: BoardKind;
  players: NominationEvent[];
  scouts?: ScoutRank[];
  week?: string;
};

/**
 * A live board of a sport (one kind per event; the all-time one also brings the scouts); the
 * reader's hasVoted is kept from what is cached. When the weekly board's week has turned over,
 * the Player of the Week history gains a week and is read again.
 */
export function setLeaderboards(
  queryClient: QueryClient,
  sport: Sport,
  { board, players, scouts, week }: BoardEvent,
) {
  queryClient.setQueryData<Nomination[]>(
    nominationKeys.leaderboardPlayers(sport, board),
    (previous) =>
      players.map((player) => ({
        ...player,
        hasVoted:
          previous?.find((entry) => entry.id === player.id)?.hasVoted ??
          findCachedNomination(queryClient, player.id)?.hasVoted ??
          false,
      })),
  );
  if (scouts)
    queryClient.setQueryData<ScoutRank[]>(nominationKeys.leaderboardScouts(sport), scouts);
  if (week) {
    const known = queryClient.getQueryData<string>(nominationKeys.boardWeek(sport));
    queryClient.setQueryData<string>(nominationKeys.boardWeek(sport), week);
    if (known && known !== week) {
      void queryClient.invalidateQueries({ queryKey: nominationKeys.weeklyHistory(sport) });
    }
  }
}

export function setStats(queryClient: QueryClient, sport: Sport, stats: Stats) {
  queryClient.setQueryData<Stats>(nominationKeys.stats(sport), stats);
}
