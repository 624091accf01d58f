import { Award, ChevronDown } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import type { Sport } from '@/stores/sport';

import { useWeeklyHistory } from '../api/get-leaderboard';
import type { WeekWinners } from '../api/types';

import { ErrorState } from './error-state';
import { RankBadge } from './rank-badge';

const weekStart = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "Week of March 3, 2025" for the Monday a week starts on (YYYY-MM-DD). */
function weekTitle(week: string): string {
  return `Week of ${weekStart.format(new Date(`${week}T00:00:00Z`))}`;
}

function WeekCard({ week, winners }: WeekWinners) {
  const title = weekTitle(week);
  return (
    <li className="rounded-xl border border-border bg-surface p-4 shadow-sm">
      <h3 className="text-sm font-semibold text-muted-foreground">{title}</h3>
      <ol aria-label={title} className="mt-3 flex flex-col gap-2">
        {winners.map((winner) => (
          <li key={winner.id}>
            <Link
              to={`/nominations/${winner.id}`}
              className="flex items-center gap-3 rounded-lg p-1 transition hover:bg-muted"
            >
              <RankBadge rank={winner.rank} className="size-8 text-sm" />
              <span className="min-w-0 flex-1 truncate font-semibold">{winner.player.name}</span>
              <span className="shrink-0 text-sm font-bold tabular-nums">
                {winner.score}{' '}
                <span className="font-normal text-muted-foreground">
                  {winner.score === 1 ? 'vote' : 'votes'}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </li>
  );
}

/**
 * Player of the Week: each past week's top 3 of the sport, newest week first, earlier weeks
 * read on demand. A week that turns over adds itself (the weekly board's event tells).
 */
export function PlayerOfTheWeek({ sport }: { sport: Sport }) {
  const query = useWeeklyHistory(sport);
  const weeks = query.data?.pages.flatMap((page) => page.items) ?? [];

  let body;
  if (query.isPending) {
    body = (
      <div
        role="status"
        aria-label="Loading Player of the Week"
        className="grid gap-3 sm:grid-cols-3"
      >
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-40 rounded-xl" />
        ))}
      </div>
    );
  } else if (query.isError) {
    body = (
      <ErrorState
        title="Could not load Player of the Week"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  } else if (weeks.length === 0) {
    body = (
      <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-foreground">
        The first Player of the Week is named when this week ends.
      </p>
    );
  } else {
    body = (
      <>
        <ul aria-label="Past weeks" className="grid gap-3 sm:grid-cols-3">
          {weeks.map((week) => (
            <WeekCard key={`${week.week}-${week.sport}`} {...week} />
          ))}
        </ul>
        {query.hasNextPage && (
          <Button
            variant="outline"
            className="mt-4"
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
          >
            {!query.isFetchingNextPage && <ChevronDown aria-hidden="true" />}
            Show earlier weeks
          </Button>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="player-of-the-week" className="mb-8">
      <h2
        id="player-of-the-week"
        className="mb-3 flex items-center gap-2 text-lg font-bold tracking-tight"
      >
        <Award className="size-5 text-secondary" aria-hidden="true" />
        Player of the Week
      </h2>
      {body}
    </section>
  );
}
