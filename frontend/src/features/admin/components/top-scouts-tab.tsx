import { Card } from '@/components/ui/card';
import { CoachBadge } from '@/components/coach-badge';
import { cn } from '@/lib/utils';

import { useAdminTopScouts } from '../api/get-top-scouts';
import { useErrorToast } from '../hooks/use-error-toast';

import { ListEmpty, ListError, ListSkeleton } from './list-states';

const PODIUM = [
  'bg-amber-400 text-amber-950',
  'bg-slate-300 text-slate-800',
  'bg-orange-700 text-white',
];

/** The ten users with the most points. */
export function TopScoutsTab() {
  const query = useAdminTopScouts();
  useErrorToast(query.error, 'Failed to fetch top scouts');

  if (query.isPending) return <ListSkeleton />;
  if (query.isError) {
    return (
      <ListError
        title="Top scouts could not be loaded"
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  if (query.data.length === 0) return <ListEmpty title="No scouts yet" />;
  return (
    <Card className="max-w-3xl">
      <ol aria-label="Top scouts" className="divide-y divide-border">
        {query.data.map((scout, index) => (
          <li key={scout.id} className="flex items-center gap-4 px-5 py-3">
            <span
              className={cn(
                'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold',
                PODIUM[index] ?? 'bg-muted text-muted-foreground',
              )}
            >
              {index + 1}
            </span>
            <span className="min-w-0 flex-1">
              <span className="block truncate font-semibold">{scout.name}</span>
              <CoachBadge userId={scout.id} />
              <span className="block truncate text-sm text-muted-foreground">
                @{scout.username}
              </span>
            </span>
            <span className="text-right">
              <span className="block text-lg font-bold tabular-nums">{scout.points}</span>
              <span className="block text-xs text-muted-foreground">
                {scout.points === 1 ? 'point' : 'points'}
              </span>
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}
