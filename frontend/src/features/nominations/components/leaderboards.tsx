import { Trophy, UserRound } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';

import { RankMovement } from '@/components/rank-movement';
import { CoachBadge } from '@/components/coach-badge';
import { BOARD_TEXT, type BoardEntry, type BoardKind } from '@/lib/boards';
import { byVotes, rank } from '@/lib/ranks';
import type { Sport } from '@/stores/sport';

import { LEADERBOARD_SIZE } from '../api/constants';
import { useTopPlayers, useTopScouts } from '../api/get-leaderboard';
import type { Nomination } from '../api/types';

import { EmptyState } from './empty-state';
import { ErrorState } from './error-state';
import { NOT_SPECIFIED, rankTone } from './labels';
import { PlayerHeadSkeleton } from './player-head-skeleton';
import { RankBadge } from './rank-badge';

const rowClasses =
  'flex items-center gap-4 rounded-xl border border-border bg-surface p-4 shadow-sm';

function RowsSkeleton() {
  return (
    <div role="status" aria-label="Loading leaderboard" className="flex flex-col gap-3">
      {Array.from({ length: 5 }, (_, index) => (
        <PlayerHeadSkeleton key={index} size="row" className={rowClasses} />
      ))}
    </div>
  );
}

type Placed = { nomination: Nomination; rank: number; score: number; movement?: number | null };

/**
 * A board's entries in order with their places, every board numbered alike: entries side by side
 * with the same figure share a rank (as the server ranks them). All time follows each live vote
 * at once, so it is ordered here by vote count; the other boards keep the server's order and
 * scores, renewed by their live events.
 */
function placed(board: BoardKind, entries: Nomination[] | undefined): Placed[] {
  if (!entries) return [];
  if (board !== 'all') {
    const top = (entries as BoardEntry[]).slice(0, LEADERBOARD_SIZE);
    return rank(top, (entry) => entry.score).map(({ item: entry, rank: place }) => ({
      nomination: entry,
      rank: place,
      score: entry.score,
      movement: entry.movement,
    }));
  }
  const sorted = [...entries].sort(byVotes).slice(0, LEADERBOARD_SIZE);
  return rank(sorted, (nomination) => nomination.voteCount).map(
    ({ item: nomination, rank: place }) => {
      const movement = (nomination as Partial<BoardEntry>).movement;
      return { nomination, rank: place, score: nomination.voteCount, movement };
    },
  );
}

const EMPTY: Record<BoardKind, { title: string; description: string }> = {
  all: {
    title: 'No players ranked yet',
    description: 'Players appear here as soon as they are nominated and voted for.',
  },
  trending: {
    title: 'Nothing trending yet',
    description: 'Players voted for in the last 24 hours appear here.',
  },
  weekly: {
    title: 'No votes this week yet',
    description: 'Players appear here with their first vote of the week.',
  },
};

/** A board's top 10 nominations, each bar measured against the leader's score. */
export function TopPlayers({ sport, board = 'all' }: { sport: Sport; board?: BoardKind }) {
  const query = useTopPlayers(sport, board);
  const players = useMemo(() => placed(board, query.data), [board, query.data]);
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
    return <EmptyState icon={Trophy} {...EMPTY[board]} />;
  }
  const top = Math.max(players[0].score, 1);
  const { unit } = BOARD_TEXT[board];
  return (
    <ol aria-label="Top Players" className="flex flex-col gap-3">
      {players.map(({ nomination, rank, score, movement }) => {
        const share = Math.round((score / top) * 100);
        return (
          <li key={nomination.id}>
            <Link
              to={`/nominations/${nomination.id}`}
              className={`${rowClasses} transition hover:-translate-y-0.5 hover:shadow-md`}
            >
              <RankBadge rank={rank} />
              <div className="min-w-0 flex-1">
                <div className="flex items-baseline justify-between gap-3">
                  <p className="flex min-w-0 items-baseline gap-2">
                    <span className="truncate font-semibold">{nomination.player.name}</span>
                    <RankMovement movement={movement} className="text-xs" />
                  </p>
                  <p className="shrink-0 text-sm font-bold tabular-nums">
                    {score} <span className="font-normal text-muted-foreground">{unit(score)}</span>
                  </p>
                </div>
                <p className="truncate text-xs text-muted-foreground">
                  {nomination.player.position} · {nomination.player.club || NOT_SPECIFIED}
                </p>
                <div
                  className="mt-2 h-2 overflow-hidden rounded-full bg-muted"
                  role="progressbar"
                  aria-label={`${nomination.player.name}: ${share}% of the top score`}
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
      {rank(scouts, (scout) => scout.nominationCount).map(({ item: scout, rank: place }) => (
        <li key={scout.id}>
          <Link
            to={`/scout/${scout.id}`}
            className={`${rowClasses} transition hover:-translate-y-0.5 hover:shadow-md`}
          >
            <RankBadge rank={place} />
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold">{scout.name}</p>
              <p className="truncate text-sm text-muted-foreground">@{scout.username}</p>
              <CoachBadge userId={scout.id} className="mt-1" />
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
