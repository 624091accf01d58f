import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { cn } from '@/lib/utils';

export type StatColor = 'primary' | 'secondary' | 'purple';

const colors: Record<StatColor, string> = {
  primary: 'bg-primary-soft text-primary',
  secondary: 'bg-secondary-soft text-secondary',
  purple: 'bg-purple-soft text-purple',
};

export type StatCardProps = {
  title: string;
  value: ReactNode;
  icon: LucideIcon;
  color?: StatColor;
  /** Makes the card a link. */
  to?: string;
  /** Makes the card a button. */
  onClick?: () => void;
  className?: string;
};

export function StatCard({
  title,
  value,
  icon: Icon,
  color = 'primary',
  to,
  onClick,
  className,
}: StatCardProps) {
  const clickable = Boolean(to || onClick);
  const classes = cn(
    'flex w-full items-center gap-4 rounded-xl border border-border bg-surface p-5 text-left shadow-sm',
    clickable && 'transition hover:-translate-y-0.5 hover:shadow-md',
    className,
  );
  const content = (
    <>
      <span
        className={cn(
          'flex size-12 shrink-0 items-center justify-center rounded-lg',
          colors[color],
        )}
      >
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <span className="min-w-0">
        <span className="block text-sm font-medium text-muted-foreground">{title}</span>
        <span className="block text-2xl font-bold tabular-nums">{value}</span>
      </span>
    </>
  );

  if (to) {
    return (
      <Link to={to} className={classes}>
        {content}
      </Link>
    );
  }
  if (onClick) {
    return (
      <button type="button" onClick={onClick} className={classes}>
        {content}
      </button>
    );
  }
  return <div className={classes}>{content}</div>;
}
