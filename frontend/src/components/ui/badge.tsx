import type { HTMLAttributes } from 'react';

import { statusTone, type StatusTone } from '@/lib/display';
import { cn } from '@/lib/utils';

export type BadgeVariant = 'neutral' | 'primary' | 'secondary' | 'purple' | StatusTone;

const variants: Record<BadgeVariant, string> = {
  neutral: 'bg-muted text-muted-foreground',
  primary: 'bg-primary-soft text-primary',
  secondary: 'bg-secondary-soft text-secondary',
  purple: 'bg-purple-soft text-purple',
  green: 'bg-success-soft text-success',
  yellow: 'bg-warning-soft text-warning',
  red: 'bg-destructive-soft text-destructive',
};

export type BadgeProps = HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant };

export function Badge({ variant = 'neutral', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}

/** A nomination status, upper-cased, coloured approved green, pending yellow, otherwise red. */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge variant={statusTone(status)} className={cn('uppercase', className)}>
      {status}
    </Badge>
  );
}
