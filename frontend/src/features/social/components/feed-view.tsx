import { ArrowUp, Inbox, RefreshCw } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-classes';
import { Skeleton } from '@/components/ui/skeleton';
import { useLoadMore } from '@/hooks/use-load-more';
import { useNow } from '@/hooks/use-now';
import { cn } from '@/lib/utils';
import { useSport, type Sport } from '@/stores/sport';

import { useFeed } from '../api/get-feed';
import { useFollowing } from '../api/get-following';
import type { Activity } from '../api/types';
import { useLiveActivities, type ActivitySubscription } from '../hooks/use-live-activities';

import { ActivityItem } from './activity-item';
import { SuggestedScoutsCard, YourNetworkCard } from './feed-sidebar';

type FeedViewProps = {
  viewerId: number;
  /** Live activity; without it the feed shows what it fetched. */
  subscribe?: ActivitySubscription;
};

/** The signed-in feed: filter, activity list and the network sidebar. */
export function FeedView({ viewerId, subscribe }: FeedViewProps) {
  const { sport, option } = useSport();
  const [following, setFollowing] = useState(false);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <section aria-labelledby="feed-heading" className="min-w-0">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 id="feed-heading" className="text-lg font-semibold">
            {following ? 'From people you follow' : `Latest in ${option.label}`}
          </h2>
          <div
            role="group"
            aria-label="Show activity from"
            className="inline-flex rounded-lg border border-border bg-surface p-1 shadow-xs"
          >
            {[
              { value: false, label: 'Everyone' },
              { value: true, label: 'Following' },
            ].map((choice) => (
              <button
                key={choice.label}
                type="button"
                aria-pressed={following === choice.value}
                onClick={() => setFollowing(choice.value)}
                className={cn(
                  'rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
                  following === choice.value
                    ? 'bg-primary text-primary-foreground shadow-sm'
                    : 'text-muted-foreground hover:bg-muted hover:text-foreground',
                )}
              >
                {choice.label}
              </button>
            ))}
          </div>
        </div>
        <ActivityList
          key={`${sport}:${following}`}
          sport={sport}
          following={following}
          subscribe={subscribe}
        />
      </section>
      <aside
        aria-label="Your network"
        className="order-first flex min-w-0 flex-col gap-6 lg:sticky lg:top-24 lg:order-none"
      >
        <YourNetworkCard />
        <SuggestedScoutsCard viewerId={viewerId} />
      </aside>
    </div>
  );
}

type ActivityListProps = {
  sport: Sport;
  following: boolean;
  subscribe?: ActivitySubscription;
};

function ActivityList({ sport, following, subscribe }: ActivityListProps) {
  const feed = useFeed({ sport, following });
  const followed = useFollowing(sport);
  const now = useNow(60_000);

  // With the "Following" filter, live activity counts only from followed scouts or players.
  const followedIds = useMemo(() => {
    const users = new Set<number>();
    const players = new Set<number>();
    for (const follow of followed.data?.items ?? []) {
      if (follow.user) users.add(follow.user.id);
      if (follow.player) players.add(follow.player.id);
    }
    return { users, players };
  }, [followed.data]);
  const accepts = useCallback(
    (activity: Activity) =>
      !following ||
      followedIds.users.has(activity.userId) ||
      (activity.relatedPlayerId != null && followedIds.players.has(activity.relatedPlayerId)),
    [following, followedIds],
  );
  const live = useLiveActivities({ sport, following, subscribe, accepts });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const sentinelRef = useLoadMore({ hasNextPage, isFetchingNextPage, fetchNextPage }, '400px 0px');

  if (feed.isPending) {
    return (
      <ul className="flex flex-col gap-3" aria-busy="true" aria-label="Loading activity">
        {Array.from({ length: 5 }, (_, index) => (
          <li key={index} className="flex gap-4 rounded-xl border border-border bg-surface p-4">
            <Skeleton className="size-10 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-3 w-1/3" />
            </div>
          </li>
        ))}
      </ul>
    );
  }

  if (feed.isError) {
    return (
      <div className="rounded-xl border border-border bg-surface p-8 text-center shadow-sm">
        <p className="font-semibold">The feed could not be loaded.</p>
        <p className="mt-1 text-sm text-muted-foreground">{feed.error.message}</p>
        <Button
          variant="outline"
          className="mt-4"
          loading={feed.isRefetching}
          onClick={() => void feed.refetch()}
        >
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }

  const activities = feed.data.pages.flatMap((page) => page.items);

  return (
    <>
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-20 z-30 flex justify-center"
      >
        {live.waitingCount > 0 && (
          <button
            type="button"
            onClick={live.showWaiting}
            className="pointer-events-auto inline-flex items-center gap-1.5 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground shadow-lg hover:bg-primary-hover"
          >
            <ArrowUp className="size-4" aria-hidden="true" />
            {live.waitingCount} new
          </button>
        )}
      </div>

      {activities.length === 0 ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-border bg-surface px-6 py-12 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <Inbox className="size-6" aria-hidden="true" />
          </span>
          <p className="mt-4 font-semibold">
            {following ? 'Nothing from your network yet' : 'No activity yet'}
          </p>
          <p className="mt-1 max-w-sm text-sm text-muted-foreground">
            {following
              ? 'Follow scouts and players to see what they are up to here.'
              : 'Nominations, votes and follows in this sport will show up here as they happen.'}
          </p>
          {following && (
            <Link to="/discover" className={buttonClasses({ className: 'mt-5' })}>
              Discover Scouts
            </Link>
          )}
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Activity">
          {activities.map((activity) => (
            <ActivityItem
              key={activity.id}
              activity={activity}
              now={now}
              highlighted={live.highlighted.has(activity.id)}
            />
          ))}
        </ul>
      )}

      <div ref={sentinelRef} className="mt-6 flex justify-center">
        {hasNextPage ? (
          <Button variant="outline" onClick={loadMore} loading={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading more...' : 'Load more'}
          </Button>
        ) : (
          activities.length > 0 && (
            <p className="text-sm text-muted-foreground">You&apos;re all caught up.</p>
          )
        )}
      </div>
      {feed.isFetchNextPageError && (
        <p role="alert" className="mt-2 text-center text-sm text-destructive">
          More activity could not be loaded.
        </p>
      )}
    </>
  );
}
