import { cn } from '@/lib/utils';
import { useConnectionStore, type ConnectionStatus } from '@/stores/connection';

const states: Record<ConnectionStatus, { label: string; dot: string }> = {
  open: { label: 'Live', dot: 'bg-success' },
  connecting: { label: 'Connecting', dot: 'bg-warning animate-pulse' },
  closed: { label: 'Offline', dot: 'bg-muted-foreground' },
};

/** Shows whether live updates are flowing. */
export function ConnectionIndicator({
  className,
  labelClassName,
}: {
  className?: string;
  labelClassName?: string;
}) {
  const status = useConnectionStore((state) => state.status);
  const { label, dot } = states[status];
  return (
    <span
      role="status"
      title={`Live updates: ${label.toLowerCase()}`}
      className={cn(
        'inline-flex items-center gap-1.5 text-xs font-medium text-muted-foreground',
        className,
      )}
    >
      <span className={cn('size-2 rounded-full', dot)} aria-hidden="true" />
      <span className={labelClassName}>{label}</span>
    </span>
  );
}
