import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

import { DocumentTitle } from './document-title';

type PageHeaderProps = {
  title: string;
  description?: ReactNode;
  /** Buttons shown beside the title on wide screens and under it on narrow ones. */
  actions?: ReactNode;
  className?: string;
};

/** A page's main heading, which also names the browser tab. */
export function PageHeader({ title, description, actions, className }: PageHeaderProps) {
  return (
    <div
      className={cn(
        'mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between',
        className,
      )}
    >
      <DocumentTitle title={title} />
      <div className="min-w-0">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        {description && <p className="mt-2 max-w-2xl text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
