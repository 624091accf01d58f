import type { QueryClient } from '@tanstack/react-query';

import type { VoteCount } from './protocol';

/**
 * `hasVoted`: this reader's own vote on the nomination as of `version`, when known (a read, a
 * `vote.own`, the answer to this tab's vote). Another member's vote does not change it, so it is
 * kept across their counts.
 */
type Seen = { version: number; voteCount: number | undefined; hasVoted: boolean | undefined };

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
  count: Pick<VoteCount, 'nominationId' | 'version'> & { voteCount?: number; hasVoted?: boolean },
): boolean {
  const versions = versionsOf(queryClient);
  const before = versions.get(count.nominationId);
  if (before !== undefined && count.version < before.version) return false;
  const voteCount =
    count.voteCount ?? (count.version === before?.version ? before.voteCount : undefined);
  const hasVoted = count.hasVoted ?? before?.hasVoted;
  versions.set(count.nominationId, { version: count.version, voteCount, hasVoted });
  return true;
}

/**
 * Forgets what the reader's own votes were (a new session: another reader, or none). The counts
 * and versions stay: they are the same for every reader.
 */
export function forgetOwnVotes(queryClient: QueryClient) {
  for (const seen of versionsOf(queryClient).values()) seen.hasVoted = undefined;
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
  answer: Pick<VoteCount, 'nominationId' | 'version' | 'voteCount'> & { hasVoted?: boolean },
): number {
  if (isCurrentVoteCount(queryClient, answer)) return answer.voteCount;
  return versionsOf(queryClient).get(answer.nominationId)?.voteCount ?? answer.voteCount;
}

type Versioned = { id: number; voteCount: number; version: number; hasVoted?: unknown };

function isVersioned(value: Record<string, unknown>): value is Versioned {
  return (
    typeof value.id === 'number' &&
    typeof value.voteCount === 'number' &&
    typeof value.version === 'number'
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * A read's data with every nomination's count (and this reader's VOTE/VOTED) at least as new as
 * the newest seen: a read that left before a live count and landed after it would otherwise show
 * the older count, or a vote taken back in another tab, until the next vote. Nominations are the
 * objects with a numeric `id`, `voteCount` and `version` (lists, pages, detail, boards); a newer
 * one is noted for the counts that follow. Returns `data` itself when nothing changed.
 */
export function withCurrentVoteCounts<T>(queryClient: QueryClient, data: T): T {
  const visit = (value: unknown, depth: number): unknown => {
    if (depth > 6) return value;
    if (Array.isArray(value)) {
      let changed = false;
      const next = value.map((item) => {
        const visited = visit(item, depth + 1);
        changed ||= visited !== item;
        return visited;
      });
      return changed ? next : value;
    }
    if (!isPlainObject(value)) return value;
    if (isVersioned(value)) {
      const hasVoted = typeof value.hasVoted === 'boolean' ? value.hasVoted : undefined;
      const read = {
        nominationId: value.id,
        version: value.version,
        voteCount: value.voteCount,
        hasVoted,
      };
      if (isCurrentVoteCount(queryClient, read)) return value;
      const seen = versionsOf(queryClient).get(value.id);
      if (seen?.voteCount === undefined) return value;
      // This reader's own vote changed since the read left (in another tab, say): it too.
      const own = hasVoted !== undefined && seen.hasVoted !== undefined;
      return {
        ...value,
        voteCount: seen.voteCount,
        version: seen.version,
        ...(own ? { hasVoted: seen.hasVoted } : {}),
      };
    }
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const visited = visit(item, depth + 1);
      changed ||= visited !== item;
      next[key] = visited;
    }
    return changed ? next : value;
  };
  return visit(data, 0) as T;
}
