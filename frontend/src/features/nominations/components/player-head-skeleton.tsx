import { Skeleton } from '@/components/ui/skeleton';

/** The classes of each size: the row, the avatar, the two lines of text and the figure. */
const SIZES = {
  row: {
    row: 'flex items-center gap-4',
    avatar: 'size-10 rounded-full',
    lines: 'flex-1 space-y-2',
    title: 'h-4 w-2/5',
    subtitle: 'h-2 w-full',
    figure: 'h-6 w-10',
  },
  card: {
    row: 'flex items-start gap-3',
    avatar: 'size-12 rounded-full',
    lines: 'flex-1 space-y-2',
    title: 'h-5 w-3/5',
    subtitle: 'h-4 w-2/5',
    figure: 'h-7 w-12 rounded-full',
  },
  profile: {
    row: 'flex flex-col gap-5 sm:flex-row sm:items-end',
    avatar: 'size-20 rounded-full sm:size-24',
    lines: 'flex-1 space-y-3',
    title: 'h-8 w-2/3 sm:w-1/2',
    subtitle: 'h-4 w-1/3',
    figure: 'h-12 w-24',
  },
} as const;

/**
 * The placeholder of a player's heading while it loads: the avatar, the name and a line under
 * it, and the figure beside them; sized as a board's row, a card or the profile page.
 */
export function PlayerHeadSkeleton({
  size,
  className,
}: {
  size: keyof typeof SIZES;
  className?: string;
}) {
  const classes = SIZES[size];
  return (
    <div className={className ? `${classes.row} ${className}` : classes.row}>
      <Skeleton className={classes.avatar} />
      <div className={classes.lines}>
        <Skeleton className={classes.title} />
        <Skeleton className={classes.subtitle} />
      </div>
      <Skeleton className={classes.figure} />
    </div>
  );
}
