import { CircleCheck, CircleX, Clock, ClipboardList, ThumbsUp, Users } from 'lucide-react';

import { Skeleton } from '@/components/ui/skeleton';
import { StatCard } from '@/components/ui/stat-card';

import type { AdminStats } from '../api/types';

import type { AdminTab } from './admin-tabs';

/** The six platform numbers; the three status cards open their tab. */
export function StatCards({
  stats,
  onOpenTab,
}: {
  stats: AdminStats | undefined;
  onOpenTab: (tab: AdminTab) => void;
}) {
  const value = (key: keyof AdminStats) =>
    stats ? stats[key].toLocaleString('en-US') : <Skeleton className="mt-1 h-7 w-12" />;
  return (
    <section
      aria-label="Platform statistics"
      className="mb-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
    >
      <StatCard
        title="Pending Nominations"
        value={value('pendingNominations')}
        icon={Clock}
        color="secondary"
        onClick={() => onOpenTab('pending')}
      />
      <StatCard
        title="Approved Nominations"
        value={value('approvedNominations')}
        icon={CircleCheck}
        color="primary"
        onClick={() => onOpenTab('approved')}
      />
      <StatCard
        title="Rejected Nominations"
        value={value('rejectedNominations')}
        icon={CircleX}
        color="purple"
        onClick={() => onOpenTab('rejected')}
      />
      <StatCard title="Total Votes" value={value('totalVotes')} icon={ThumbsUp} color="primary" />
      <StatCard
        title="Active Scouts"
        value={value('activeScouts')}
        icon={Users}
        color="secondary"
      />
      <StatCard
        title="Total Nominations"
        value={value('totalNominations')}
        icon={ClipboardList}
        color="purple"
      />
    </section>
  );
}
