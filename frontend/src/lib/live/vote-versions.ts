import type { QueryClient } from '@tanstack/react-query';

import type { VoteCount } from './protocol';

type Seen = { version: number; voteCount: number | undefined };

/**
 * The newest vote count of each nomination seen so far (its version and count), per query cache.
 * Counts leave the server in commit order per process but may arrive in another order from
 * several, and a vote's REST answer may land after live counts that followed it: one older than
 * what was seen before is ignored.
 */
const seen = new WeakMap<QueryClient, Map<number, Seen>>();

function versionsOf(queryClient: QueryClient): Map<number, Seen> {
  let versions = seen.get(queryClient);
  if (!versions) {
    versions = new Map();
    seen.set(queryClient, versions);
  }
  return versions;
}

/**
 * Whether `count` is not older than every count of its nomination seen before (and note it,
 * with its vote count when it has one).
 */
export function isCurrentVoteCount(
  queryClient: QueryClient,
  count: Pick<VoteCount, 'nominationId' | 'version'> & { voteCount?: number },
): boolean {
  const versions = versionsOf(queryClient);
  const before = versions.get(count.nominationId);
  if (before !== undefined && count.version < before.version) return false;
  const voteCount =
    count.voteCount ?? (count.version === before?.version ? before.voteCount : undefined);
  versions.set(count.nominationId, { version: count.version, voteCount });
  return true;
}

/** The counts of a `vote.changed` that are not older than what was applied before. */
export function currentVoteCounts(queryClient: QueryClient, votes: VoteCount[]): VoteCount[] {
  return votes.filter((vote) => isCurrentVoteCount(queryClient, vote));
}

/**
 * The vote count to show with a vote's REST answer: the answer's own, unless a newer count of
 * the nomination was seen meanwhile (live counts wait while a vote is on its way, so the newest
 * one would otherwise be lost behind the older answer).
 */
export function voteCountToShow(
  queryClient: QueryClient,
  answer: Pick<VoteCount, 'nominationId' | 'version' | 'voteCount'>,
): number {
  if (isCurrentVoteCount(queryClient, answer)) return answer.voteCount;
  return versionsOf(queryClient).get(answer.nominationId)?.voteCount ?? answer.voteCount;
}
