import { RefreshCw, Users } from 'lucide-react';
import { useCallback } from 'react';

import { Button } from '@/components/ui/button';
import { useLoadMore } from '@/hooks/use-load-more';

import { useScoutDirectory } from '../api/get-scouts';

import { ScoutCard } from './scout-card';

/** Every discoverable scout, as a grid of cards that loads more on scroll. */
export function ScoutDirectory() {
  const directory = useScoutDirectory();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = directory;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const sentinelRef = useLoadMore({ hasNextPage, isFetchingNextPage, fetchNextPage }, '400px 0px');

  if (directory.isPending) {
    return (
      <p role="status" className="py-16 text-center text-muted-foreground">
        Loading scouts...
      </p>
    );
  }

  if (directory.isError) {
    return (
      <div className="rounded-xl border border-border bg-surface p-8 text-center shadow-sm">
        <p className="font-semibold">Scouts could not be loaded.</p>
        <p className="mt-1 text-sm text-muted-foreground">{directory.error.message}</p>
        <Button
          variant="outline"
          className="mt-4"
          loading={directory.isRefetching}
          onClick={() => void directory.refetch()}
        >
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }

  const scouts = directory.data.pages.flatMap((page) => page.items);
  if (scouts.length === 0) {
    return (
      <div className="flex flex-col items-center rounded-xl border border-dashed border-border bg-surface px-6 py-16 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Users className="size-6" aria-hidden="true" />
        </span>
        <p className="mt-4 text-muted-foreground">No scouts found. Check back later!</p>
      </div>
    );
  }

  return (
    <>
      <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" aria-label="Scouts">
        {scouts.map((scout) => (
          <ScoutCard key={scout.id} scout={scout} />
        ))}
      </ul>
      <div ref={sentinelRef} className="mt-8 flex justify-center">
        {hasNextPage && (
          <Button variant="outline" onClick={loadMore} loading={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading more...' : 'Load more scouts'}
          </Button>
        )}
      </div>
    </>
  );
}
