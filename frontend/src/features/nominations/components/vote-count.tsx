import { ThumbsUp } from 'lucide-react';

import { cn } from '@/lib/utils';

/** A nomination's community vote count. */
export function VoteCount({ count, className }: { count: number; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center gap-1.5 rounded-full bg-secondary-soft px-2.5 py-1 text-sm font-semibold text-secondary tabular-nums',
        className,
      )}
    >
      <ThumbsUp className="size-3.5" aria-hidden="true" />
      <span data-testid="vote-count">{count}</span>
      <span className="sr-only">{count === 1 ? 'vote' : 'votes'}</span>
    </span>
  );
}
