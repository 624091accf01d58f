import { CircleAlert, Inbox } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

/** Placeholder rows while an admin list loads. */
export function ListSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div className="flex flex-col gap-3" role="status" aria-label="Loading">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-24 w-full rounded-xl" />
      ))}
    </div>
  );
}

export function ListEmpty({ title, description }: { title: string; description?: string }) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-border bg-surface px-6 py-12 text-center">
      <Inbox className="size-8 text-muted-foreground" aria-hidden="true" />
      <h2 className="mt-3 font-semibold">{title}</h2>
      {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
    </div>
  );
}

/** A list that could not be read (the toast said why), with a way to try again. */
export function ListError({
  title,
  onRetry,
  retrying,
}: {
  title: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-destructive/30 bg-destructive-soft/40 px-6 py-10 text-center">
      <CircleAlert className="size-8 text-destructive" aria-hidden="true" />
      <h2 className="mt-3 font-semibold">{title}</h2>
      <Button variant="outline" className="mt-4" loading={retrying} onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function LoadMoreButton({
  onClick,
  loading,
  label = 'Load more',
}: {
  onClick: () => void;
  loading: boolean;
  label?: string;
}) {
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="outline" loading={loading} onClick={onClick}>
        {label}
      </Button>
    </div>
  );
}
