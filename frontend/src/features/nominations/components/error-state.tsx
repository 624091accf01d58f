import { RotateCcw, TriangleAlert } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';

/** A read that failed, with its reason and a way to try again. */
export function ErrorState({
  title,
  error,
  onRetry,
  retrying = false,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center rounded-xl border border-destructive/30 bg-destructive-soft/40 px-6 py-10 text-center"
    >
      <TriangleAlert className="size-8 text-destructive" aria-hidden="true" />
      <h2 className="mt-3 font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {errorMessage(error, 'Check your connection and try again.')}
      </p>
      <Button variant="outline" className="mt-5" onClick={onRetry} loading={retrying}>
        {!retrying && <RotateCcw aria-hidden="true" />}
        Try again
      </Button>
    </div>
  );
}
