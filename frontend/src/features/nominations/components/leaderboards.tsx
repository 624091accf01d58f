import { Trophy, UserRound } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';

import { Skeleton } from '@/components/ui/skeleton';
import type { Sport } from '@/stores/sport';

import { LEADERBOARD_SIZE } from '../api/constants';
import { byVotes, useTopPlayers, useTopScouts } from '../api/get-leaderboard';

import { EmptyState } from './empty-state';
import { ErrorState } from './error-state';
import { NOT_SPECIFIED, rankTone } from './labels';
import { RankBadge } from './rank-badge';

const rowClasses =
  'flex items-center gap-4 rounded-xl border border-border bg-surface p-4 shadow-sm';

function RowsSkeleton() {
  return (
    <div role="status" aria-label="Loading leaderboard" className="flex flex-col gap-3">
      {Array.from({ length: 5 }, (_, index) => (
        <div key={index} className={rowClasses}>
          <Skeleton className="size-10 rounded-full" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-2/5" />
            <Skeleton className="h-2 w-full" />
          </div>
          <Skeleton className="h-6 w-10" />
        </div>
      ))}
    </div>
  );
}

/** The top 10 nominations by votes, each bar measured against the leader's count. */
export function TopPlayers({ sport }: { sport: Sport }) {
  const query = useTopPlayers(sport);
  const players = useMemo(
    () => [...(query.data ?? [])].sort(byVotes).slice(0, LEADERBOARD_SIZE),
    [query.data],
  );
  if (query.isPending) return <RowsSkeleton />;
  if (query.isError) {
    return (
      <ErrorState
        title="Could not load the leaderboard"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  if (players.length === 0) {
    return (
      <EmptyState
        icon={Trophy}
        title="No players ranked yet"
        description="Players appear here as soon as they are nominated and voted for."
      />
    );
  }
  const top = Math.max(players[0].voteCount, 1);
  return (
    <ol aria-label="Top Players" className="flex flex-col gap-3">
      {players.map((nomination, index) => {
        const rank = index + 1;
        const share = Math.round((nomination.voteCount / top) * 100);
        return (
          <li key={nomination.id}>
            <Link
              to={`/nominations/${nomination.id}`}
              className={`${rowClasses} transition hover:-translate-y-0.5 hover:shadow-md`}
            >
              <RankBadge rank={rank} />
              <div className="min-w-0 flex-1">
                <div className="flex items-baseline justify-between gap-3">
                  <p className="truncate font-semibold">{nomination.player.name}</p>
                  <p className="shrink-0 text-sm font-bold tabular-nums">
                    {nomination.voteCount}{' '}
                    <span className="font-normal text-muted-foreground">
                      {nomination.voteCount === 1 ? 'vote' : 'votes'}
                    </span>
                  </p>
                </div>
                <p className="truncate text-xs text-muted-foreground">
                  {nomination.player.position} · {nomination.player.club || NOT_SPECIFIED}
                </p>
                <div
                  className="mt-2 h-2 overflow-hidden rounded-full bg-muted"
                  role="progressbar"
                  aria-label={`${nomination.player.name}: ${share}% of the top vote count`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={share}
                >
                  <div
                    className={`h-full rounded-full transition-[width] duration-500 ${rankTone(rank).bar}`}
                    style={{ width: `${share}%` }}
                  />
                </div>
              </div>
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

/** The top 10 scouts by nominations. */
export function TopScouts({ sport }: { sport: Sport }) {
  const query = useTopScouts(sport);
  if (query.isPending) return <RowsSkeleton />;
  if (query.isError) {
    return (
      <ErrorState
        title="Could not load the leaderboard"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  const scouts = query.data.slice(0, LEADERBOARD_SIZE);
  if (scouts.length === 0) {
    return (
      <EmptyState
        icon={UserRound}
        title="No scouts ranked yet"
        description="Scouts appear here once they nominate players in this sport."
      />
    );
  }
  return (
    <ol aria-label="Top Scouts" className="flex flex-col gap-3">
      {scouts.map((scout, index) => (
        <li key={scout.id}>
          <Link
            to={`/scout/${scout.id}`}
            className={`${rowClasses} transition hover:-translate-y-0.5 hover:shadow-md`}
          >
            <RankBadge rank={index + 1} />
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold">{scout.name}</p>
              <p className="truncate text-sm text-muted-foreground">@{scout.username}</p>
            </div>
            <p className="shrink-0 text-right">
              <span className="block text-lg font-bold tabular-nums">{scout.nominationCount}</span>
              <span className="block text-xs text-muted-foreground">
                {scout.nominationCount === 1 ? 'nomination' : 'nominations'}
              </span>
            </p>
          </Link>
        </li>
      ))}
    </ol>
  );
}
