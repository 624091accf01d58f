import { Eye } from 'lucide-react';

import { cn } from '@/lib/utils';

import { useWatching, watchingLabel } from './presence';
import type { PresenceCount } from './protocol';

/** "N watching" for a nomination or a sport, once the server has told the count. */
export function WatchingCount({
  scope,
  id,
  className,
}: {
  scope: PresenceCount['scope'];
  id: number | string;
  className?: string;
}) {
  const watching = useWatching(scope, id);
  if (watching === undefined) return null;
  return (
    <span
      className={cn('inline-flex items-center gap-1 text-sm text-muted-foreground', className)}
      data-testid="watching"
    >
      <Eye className="size-[1em]" aria-hidden="true" />
      {watchingLabel(watching)}
    </span>
  );
}
