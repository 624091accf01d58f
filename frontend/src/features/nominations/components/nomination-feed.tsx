import type { QueryKey, UseInfiniteQueryResult } from '@tanstack/react-query';
import { ArrowUp } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { LiveRegion } from '@/components/ui/live-region';
import { useLoadMore } from '@/hooks/use-load-more';
import { useVoteCountAnnouncements } from '@/lib/live-announcer';
import { cn } from '@/lib/utils';

import { flattenPages, type PagedData } from '../api/paged';
import type { Nomination } from '../api/types';
import { useIncomingNominations } from '../hooks/use-incoming-nominations';

import { ErrorState } from './error-state';
import { NominationGrid, NominationGridSkeleton } from './nomination-card';

type NominationFeedProps = {
  query: UseInfiniteQueryResult<PagedData<Nomination>>;
  /** The query's key, where live nominations for this list wait. */
  listKey: QueryKey;
  /** Which of the read nominations to show (a tab of the vote page). */
  filter?: (nomination: Nomination) => boolean;
  /** Shown when nothing is left to show and no page is left to read. */
  empty: ReactNode;
  errorTitle?: string;
};

/**
 * A paged list of nomination cards: 6 skeletons while the first page loads, the next page read
 * as the end comes into view, and live arrivals held behind an "N new" pill.
 */
export function NominationFeed({
  query,
  listKey,
  filter,
  empty,
  errorTitle = 'Could not load nominations',
}: NominationFeedProps) {
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const all = useMemo(() => flattenPages(data), [data]);
  const shown = useMemo(() => (filter ? all.filter(filter) : all), [all, filter]);
  const { newCount, showNew } = useIncomingNominations(listKey, all);
  const loadMoreRef = useLoadMore({ hasNextPage, isFetchingNextPage, fetchNextPage });
  const countMessage = useVoteCountAnnouncements(shown);

  if (query.isPending) return <NominationGridSkeleton />;
  if (query.isError && !data) {
    return (
      <ErrorState
        title={errorTitle}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }

  return (
    <div className="relative">
      <LiveRegion message={countMessage} />
      {newCount > 0 && (
        <div className="pointer-events-none sticky top-20 z-30 flex justify-center">
          <Button
            size="sm"
            onClick={showNew}
            className="pointer-events-auto -mb-8 rounded-full shadow-lg"
          >
            <ArrowUp aria-hidden="true" />
            {newCount} new
          </Button>
        </div>
      )}

      {shown.length > 0 ? (
        <div
          className={cn('transition-opacity', query.isPlaceholderData && 'opacity-60')}
          aria-busy={query.isPlaceholderData || undefined}
        >
          <NominationGrid nominations={shown} headingLevel={2} />
        </div>
      ) : hasNextPage ? (
        <NominationGridSkeleton count={3} />
      ) : (
        empty
      )}

      {hasNextPage && (
        <div ref={loadMoreRef} className="mt-8 flex justify-center">
          {isFetchingNextPage ? (
            <Spinner className="size-6 text-primary" label="Loading more nominations" />
          ) : query.isFetchNextPageError ? (
            <Button variant="outline" onClick={() => void fetchNextPage()}>
              Could not load more. Try again
            </Button>
          ) : (
            <Button variant="outline" onClick={() => void fetchNextPage()}>
              Load more
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
