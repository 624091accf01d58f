import type { QueryClient } from '@tanstack/react-query';

import type { VoteCount } from './protocol';

/**
 * The highest version of each nomination's vote count applied so far, per query cache. Counts
 * leave the server in commit order per process but may arrive in another order from several:
 * one older than what a screen already shows is ignored.
 */
const applied = new WeakMap<QueryClient, Map<number, number>>();

/** Whether `count` is not older than every count of its nomination seen before (and note it). */
export function isCurrentVoteCount(
  queryClient: QueryClient,
  { nominationId, version }: Pick<VoteCount, 'nominationId' | 'version'>,
): boolean {
  let versions = applied.get(queryClient);
  if (!versions) {
    versions = new Map();
    applied.set(queryClient, versions);
  }
  const seen = versions.get(nominationId);
  if (seen !== undefined && version < seen) return false;
  versions.set(nominationId, version);
  return true;
}

/** The counts of a `vote.changed` that are not older than what was applied before. */
export function currentVoteCounts(queryClient: QueryClient, votes: VoteCount[]): VoteCount[] {
  return votes.filter((vote) => isCurrentVoteCount(queryClient, vote));
}
