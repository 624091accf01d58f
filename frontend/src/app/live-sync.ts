import type { QueryClient } from '@tanstack/react-query';

import type { LiveEvent } from '@/lib/live/protocol';
import { currentVoteCounts, isCurrentVoteCount } from '@/lib/live/vote-versions';
import {
  insertNomination,
  removeNomination,
  replaceNomination,
  setLeaderboards,
  setStats,
  setVoteCount,
  setVoteState,
} from '@/features/nominations/api/nomination-cache';
import { nominationKeys } from '@/features/nominations/api/nomination-keys';
import { followKeys as playerFollowKeys } from '@/features/nominations/api/refresh';
import { isVoteInFlight } from '@/features/nominations/api/vote';
import { profileKeys } from '@/features/profile/api/keys';
import { removeNominationActivities } from '@/features/social/api/get-feed';
import { feedKeys, followKeys, scoutKeys } from '@/features/social/api/keys';
import { isSport } from '@/stores/sport';

type Points = { points?: number };

/**
 * Takes one live event into the query cache, where the screens read it. Events that carry the
 * whole new value are written with setQueryData; the others mark what they change as stale.
 */
export function applyLiveEvent(queryClient: QueryClient, event: LiveEvent) {
  const sport = isSport(event.sport) ? event.sport : null;
  switch (event.type) {
    case 'vote.changed': {
      for (const { nominationId, voteCount } of currentVoteCounts(queryClient, event.data.votes)) {
        // A vote of this reader on its way sets the count itself when it returns; taking an
        // older count now would make the optimistic one flicker.
        if (!isVoteInFlight(queryClient, nominationId)) {
          setVoteCount(queryClient, nominationId, voteCount);
        }
      }
      break;
    }
    case 'vote.own': {
      // The reader voted or took a vote back in another tab: VOTE/VOTED and the count follow,
      // in every cached copy. This tab's own call, if one is on its way, has the last word.
      const { nominationId, voteCount, hasVoted } = event.data;
      if (
        isCurrentVoteCount(queryClient, event.data) &&
        !isVoteInFlight(queryClient, nominationId)
      ) {
        setVoteState(queryClient, { nominationId, voteCount, hasVoted });
      }
      break;
    }
    case 'follow.own': {
      // The reader followed or unfollowed in another tab: the Follow buttons here follow.
      // A read of the status still on its way left before this change: it is dropped, or it
      // would land after it and show the state before.
      const { playerId, userId, following } = event.data;
      if (playerId !== null) {
        setLive(queryClient, playerFollowKeys.playerStatus(playerId), { isFollowing: following });
      }
      if (userId !== null) {
        setLive(queryClient, followKeys.userStatus(userId), { isFollowing: following });
        void queryClient.invalidateQueries({ queryKey: scoutKeys.detail(userId) });
      }
      void queryClient.invalidateQueries({ queryKey: followKeys.followingLists() });
      void queryClient.invalidateQueries({ queryKey: feedKeys.all, refetchType: 'none' });
      break;
    }
    case 'nomination.created':
      insertNomination(queryClient, event.data);
      readAgainInFlight(queryClient, event.data.id);
      break;
    case 'nomination.updated':
      replaceNomination(queryClient, event.data);
      readAgainInFlight(queryClient, event.data.id);
      break;
    case 'nomination.removed':
      removeNomination(queryClient, event.data.id);
      readAgainInFlight(queryClient, event.data.id);
      // Rejected, removed or taken down: the feed drops what it said about it at once.
      removeNominationActivities(queryClient, event.data.id);
      break;
    case 'leaderboard.changed':
      if (sport) setLeaderboards(queryClient, sport, event.data);
      break;
    case 'stats.changed':
      if (sport) setStats(queryClient, sport, event.data);
      break;
    case 'activity.created':
      // An open feed inserts the activity itself (it listens on the live bus); any other
      // cached feed is read again when next shown.
      void queryClient.invalidateQueries({ queryKey: feedKeys.all, refetchType: 'none' });
      break;
    case 'notification.created':
      // The bell takes it in itself (it listens on the live bus) and shows the toast.
      break;
    case 'profile.changed':
      queryClient.setQueriesData<Points>({ queryKey: profileKeys.all }, (profile) =>
        profile && typeof profile === 'object'
          ? { ...profile, points: event.data.points }
          : profile,
      );
      break;
    case 'moderation.changed':
    case 'report.created':
    case 'takedown.created':
    case 'takedown.confirmed':
    case 'modlog.created':
    case 'claims.changed':
      // Only the admin dashboard shows them; it listens on the live bus.
      break;
  }
}

/**
 * Reads again what a group's events feed, after some of them may have been missed: a sport's
 * nominations, leaderboards, stats and feed; a user's own nominations and profile (the bell
 * reads its notifications again itself).
 */
export function resyncLiveGroups(queryClient: QueryClient, groups: string[]) {
  const stale = new Set<readonly unknown[]>();
  for (const group of groups) {
    if (group.startsWith('sport.')) {
      stale.add(nominationKeys.all);
      stale.add(feedKeys.all);
    } else if (group.startsWith('user.')) {
      stale.add(nominationKeys.byUsers());
      stale.add(profileKeys.all);
    }
  }
  for (const queryKey of stale) void queryClient.invalidateQueries({ queryKey });
}

/**
 * Sets a query's data from a live event, first cancelling a read of it still on its way (that
 * read left before the change the event tells of, so its answer would be older). The cancelled
 * read's revert happens at once, before the new data are set, and a manual set is what later
 * reverts return to.
 */
function setLive<T>(queryClient: QueryClient, queryKey: readonly unknown[], data: T) {
  void queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.setQueryData<T>(queryKey, data);
}

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
