import { cn } from '@/lib/utils';

import { rankTone } from './labels';

export function RankBadge({ rank, className }: { rank: number; className?: string }) {
  return (
    <span
      className={cn(
        'flex size-10 shrink-0 items-center justify-center rounded-full text-base font-extrabold tabular-nums ring-2',
        rankTone(rank).badge,
        className,
      )}
    >
      <span className="sr-only">Rank </span>
      {rank}
    </span>
  );
}
