import { Hourglass, ThumbsUp, Users } from 'lucide-react';

import { Skeleton } from '@/components/ui/skeleton';
import { StatCard } from '@/components/ui/stat-card';
import type { Sport } from '@/stores/sport';

import { useStats } from '../api/get-stats';

/** Total Nominations, Total Votes and Nominations Needing Votes of the selected sport. */
export function StatsOverview({ sport }: { sport: Sport }) {
  const { data: stats, isError } = useStats(sport);
  const value = (pick: (s: NonNullable<typeof stats>) => number) =>
    stats ? pick(stats).toLocaleString() : isError ? '–' : <Skeleton className="mt-1 h-7 w-14" />;
  return (
    <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-3">
      <StatCard
        title="Total Nominations"
        value={value((s) => s.nominations)}
        icon={Users}
        color="primary"
      />
      <StatCard
        title="Total Votes"
        value={value((s) => s.votes)}
        icon={ThumbsUp}
        color="secondary"
      />
      <StatCard
        title="Nominations Needing Votes"
        value={value((s) => s.nominationsNeedingVotes)}
        icon={Hourglass}
        color="purple"
        to="/nominations/needing-votes"
      />
    </section>
  );
}
