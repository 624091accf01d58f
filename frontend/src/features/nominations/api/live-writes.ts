import type { QueryClient } from '@tanstack/react-query';

import { currentVoteCounts, isCurrentVoteCount } from '@/lib/live/vote-versions';
import { setLive, type LiveRereads, type LiveWrites } from '@/lib/live/reducers';
import { boardKeys, followKeys } from '@/lib/query-keys';
import { applyVote } from '@/lib/ranks';
import { isSport } from '@/stores/sport';

import {
  insertNomination,
  removeNomination,
  replaceNomination,
  setCommentCount,
  setLeaderboards,
  setStats,
  setVoteCount,
  setVoteState,
} from './nomination-cache';
import { nominationKeys } from './nomination-keys';
import type { Nomination } from './types';
import { isVoteInFlight } from './vote';

/**
 * What the live events write into the nomination reads: every cached copy of a nomination (the
 * lists, the recent grid, the details, a scout's list, the boards the pages and the wall share),
 * the boards and the stats, and the Follow Player buttons.
 */
export const nominationLiveWrites = {
  'vote.changed': (queryClient, event) => {
    const sport = isSport(event.sport) ? event.sport : null;
    for (const count of currentVoteCounts(queryClient, event.data.votes)) {
      // A vote of this reader on its way sets the count itself when it returns; taking an
      // older count now would make the optimistic one flicker.
      if (isVoteInFlight(queryClient, count.nominationId)) continue;
      // All time ranks by the count itself, so it moves on the board with each vote; the
      // other boards move with their own leaderboard.changed.
      if (sport) {
        queryClient.setQueryData<Nomination[]>(boardKeys.players(sport, 'all'), (players) =>
          applyVote(players, count),
        );
      }
      setVoteCount(queryClient, count.nominationId, count.voteCount, count.version);
    }
  },
  'vote.own': (queryClient, event) => {
    // The reader voted or took a vote back in another tab: VOTE/VOTED and the count follow,
    // in every cached copy. This tab's own call, if one is on its way, has the last word.
    const { nominationId } = event.data;
    if (isCurrentVoteCount(queryClient, event.data) && !isVoteInFlight(queryClient, nominationId)) {
      setVoteState(queryClient, event.data);
    }
  },
  'follow.own': (queryClient, event) => {
    // The reader followed or unfollowed a player in another tab: the Follow Player buttons
    // here follow. A read of the status still on its way left before this change: it is
    // dropped, or it would land after it and show the state before.
    const { playerId, following } = event.data;
    if (playerId !== null) {
      setLive(queryClient, followKeys.playerStatus(playerId), { isFollowing: following });
    }
  },
  'nomination.created': (queryClient, event) => {
    insertNomination(queryClient, event.data);
    readAgainInFlight(queryClient, event.data.id);
  },
  'nomination.updated': (queryClient, event) => {
    replaceNomination(queryClient, event.data);
    readAgainInFlight(queryClient, event.data.id);
  },
  'nomination.removed': (queryClient, event) => {
    removeNomination(queryClient, event.data.id);
    readAgainInFlight(queryClient, event.data.id);
  },
  'leaderboard.changed': (queryClient, event) => {
    if (isSport(event.sport)) setLeaderboards(queryClient, event.sport, event.data);
  },
  'stats.changed': (queryClient, event) => {
    if (isSport(event.sport)) setStats(queryClient, event.sport, event.data);
  },
  // The count on the cards and the page moves with each published comment (a held one
  // carries the published count unchanged).
  'comment.created': (queryClient, event) =>
    setCommentCount(queryClient, event.data.nominationId, event.data.commentCount),
  'comment.removed': (queryClient, event) =>
    setCommentCount(queryClient, event.data.nominationId, event.data.commentCount),
} satisfies LiveWrites;

/** The nomination reads a created, edited or removed nomination is written into. */
const nominationReads = (id: number) => [
  nominationKeys.recents(),
  nominationKeys.lists(),
  nominationKeys.needingVotesAll(),
  nominationKeys.detail(id),
  nominationKeys.byUsers(),
];

/**
 * Starts again each list of nominations, and the detail of nomination `id`, still being read
 * when an event about `id` arrives (the first read after connecting, a resync's): it may have
 * read the database before the change, and its answer, landing after the event, would undo
 * it. The new read starts after the change was committed, so it brings it. Boards and stats
 * are not read again: their events carry the whole value, and they come many times a second
 * on a busy day.
 */
function readAgainInFlight(queryClient: QueryClient, id: number) {
  for (const queryKey of nominationReads(id)) {
    for (const query of queryClient
      .getQueryCache()
      .findAll({ queryKey, fetchStatus: 'fetching' })) {
      const readAgain = () =>
        void queryClient.invalidateQueries({
          queryKey: query.queryKey,
          exact: true,
          refetchType: 'all',
        });
      if (query.state.data === undefined) {
        // A first read is not cancelled by a refetch (TanStack Query hands back the read on
        // its way): it is read again once it has landed.
        void query.promise?.then(readAgain, readAgain);
      } else {
        readAgain();
      }
    }
  }
}

/**
 * What the nomination reads need again when a group's events were missed: everything a sport's
 * events write (the lists, details, boards, stats); the reader's own nominations for their
 * user group (a rejection told to its nominator there).
 */
export const nominationLiveRereads = {
  sport: [nominationKeys.all],
  user: [nominationKeys.byUsers()],
} satisfies LiveRereads;
