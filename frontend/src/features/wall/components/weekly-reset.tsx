import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { useNow } from '@/hooks/use-now';
import type { Sport } from '@/stores/sport';

import { formatCountdown } from '../api/countdown';
import { useWallWeek } from '../api/get-wall-data';
import { wallKeys } from '../api/wall-keys';

/**
 * How long until the weekly board starts again from zero. The week turning over reaches the
 * wall as the weekly board's event (with the next reset); should the boundary pass without it,
 * the wall reads the week and the weekly board again itself.
 */
export function WeeklyReset({ sport, className }: { sport: Sport; className?: string }) {
  const queryClient = useQueryClient();
  const week = useWallWeek();
  const now = useNow(1000);
  const resetsAt = week.data ? Date.parse(week.data.resetsAt) : null;
  const passed = resetsAt !== null && now.getTime() >= resetsAt;

  useEffect(() => {
    if (!passed) return;
    // A second's grace for the server's push, then read again (once per boundary).
    const timer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: wallKeys.week() });
      void queryClient.invalidateQueries({ queryKey: wallKeys.players(sport, 'weekly') });
    }, 1000);
    return () => clearTimeout(timer);
  }, [passed, queryClient, sport]);

  if (resetsAt === null || !week.data) return null;
  return (
    <p className={className}>
      Weekly reset in{' '}
      <time dateTime={week.data.resetsAt} className="font-black text-white tabular-nums">
        {formatCountdown(resetsAt - now.getTime())}
      </time>
    </p>
  );
}
