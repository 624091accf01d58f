import type { QueryClient } from '@tanstack/react-query';

import { updateLive, type LiveRereads, type LiveWrites } from '@/lib/live/reducers';
import { clubKeys } from '@/lib/query-keys';

import { withFollowing } from './clubs';
import type { Club, ClubNomination } from './types';

/** How many recent activities a club's page holds (the server's PAGE_ACTIVITY_MAX). */
export const ACTIVITY_SHOWN = 10;

/** The server's order of a club's players: most votes first, then the oldest nomination. */
function byVotes(a: ClubNomination, b: ClubNomination) {
  return b.voteCount - a.voteCount || a.nominationId - b.nominationId;
}

function eachClub(queryClient: QueryClient, update: (club: Club) => Club) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: clubKeys.details() })) {
    updateLive<Club>(queryClient, query.queryKey, (club) => (club ? update(club) : club));
  }
}

/**
 * What the live events write into the club pages: the votes of their players (a count older than
 * the one shown is ignored, by its version), the reader's own follow from another tab, and the
 * nominations that change or leave (read again: whether the club lists one is the server's
 * privacy rule to decide), and new activity about its listed players.
 */
export const clubLiveWrites = {
  'vote.changed': (queryClient, event) => {
    const counts = new Map(event.data.votes.map((count) => [count.nominationId, count]));
    eachClub(queryClient, (club) => {
      let changed = false;
      const players = club.players.map((row) => {
        const count = counts.get(row.nominationId);
        if (!count || count.version <= row.version) return row;
        changed = true;
        return { ...row, voteCount: count.voteCount, version: count.version };
      });
      return changed ? { ...club, players: players.sort(byVotes) } : club;
    });
  },
  'follow.own': (queryClient, event) => {
    const { clubId, following } = event.data;
    if (clubId === null || clubId === undefined) return;
    updateLive<Club>(queryClient, clubKeys.detail(clubId), (club) =>
      withFollowing(club, following),
    );
  },
  'nomination.updated': (queryClient) => {
    // An approval, an edit of the club, a takedown: who the club lists is the server's rule.
    void queryClient.invalidateQueries({ queryKey: clubKeys.details() });
  },
  'activity.created': (queryClient, event) => {
    // Activity about a listed player leads the club's recent activity (as many as a read holds).
    const activity = event.data;
    eachClub(queryClient, (club) => {
      const listed = club.players.some((row) => row.player.id === activity.relatedPlayerId);
      if (!listed || club.activity.some((item) => item.id === activity.id)) return club;
      return { ...club, activity: [activity, ...club.activity].slice(0, ACTIVITY_SHOWN) };
    });
  },
  'nomination.removed': (queryClient, event) => {
    eachClub(queryClient, (club) => {
      const players = club.players.filter((row) => row.nominationId !== event.data.id);
      return players.length === club.players.length ? club : { ...club, players };
    });
  },
} satisfies LiveWrites;

/** The club pages hold votes (sport groups) and the reader's follows (their own group). */
export const clubLiveRereads = {
  sport: [clubKeys.details()],
  user: [clubKeys.details()],
} satisfies LiveRereads;
