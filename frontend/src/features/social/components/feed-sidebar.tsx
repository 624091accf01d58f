import { Compass, Users } from 'lucide-react';
import { Link } from 'react-router';

import { Avatar } from '@/components/ui/avatar';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useSport } from '@/stores/sport';

import { useFollowing } from '../api/get-following';
import { useSuggestedScouts } from '../api/get-scouts';

import { FollowScoutButton } from './follow-scout-button';

/** How many suggested scouts the sidebar shows. */
const SUGGESTIONS_SHOWN = 4;

export function YourNetworkCard() {
  const { option } = useSport();
  const following = useFollowing(option.value);
  const SportIcon = option.icon;
  const count = following.data
    ? `${following.data.items.length}${following.data.nextUrl ? '+' : ''}`
    : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Users className="size-4 text-primary" aria-hidden="true" />
          Your Network
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-lg bg-muted px-3 py-2.5">
            <dt className="text-xs font-medium text-muted-foreground">Following</dt>
            <dd className="text-2xl font-bold tabular-nums">
              {following.isError ? '–' : (count ?? <Skeleton className="mt-1 h-7 w-10" />)}
            </dd>
          </div>
          <div className="rounded-lg bg-muted px-3 py-2.5">
            <dt className="text-xs font-medium text-muted-foreground">Sport</dt>
            <dd className="mt-1 flex items-center gap-1.5 text-base font-semibold">
              <SportIcon className="size-4 text-primary" aria-hidden="true" />
              {option.label}
            </dd>
          </div>
        </dl>
        <p className="mt-3 hidden text-xs text-muted-foreground lg:block">
          Players you follow in {option.label}, and the scouts you follow.
        </p>
      </CardContent>
    </Card>
  );
}

export function SuggestedScoutsCard({ viewerId }: { viewerId: number }) {
  const suggested = useSuggestedScouts();
  const scouts = (suggested.data ?? [])
    .filter((scout) => scout.id !== viewerId)
    .slice(0, SUGGESTIONS_SHOWN);

  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle className="flex items-center gap-2 text-base">
          <Compass className="size-4 text-primary" aria-hidden="true" />
          Suggested Scouts
        </CardTitle>
        <Link to="/discover" className="text-sm font-medium text-primary hover:underline">
          See all
        </Link>
      </CardHeader>
      <CardContent>
        {suggested.isPending ? (
          <ul className="flex flex-col gap-3" aria-label="Loading suggested scouts">
            {Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="flex items-center gap-3">
                <Skeleton className="size-10 rounded-full" />
                <div className="flex-1 space-y-1.5">
                  <Skeleton className="h-4 w-24" />
                  <Skeleton className="h-3 w-16" />
                </div>
              </li>
            ))}
          </ul>
        ) : suggested.isError ? (
          <p className="text-sm text-muted-foreground">Suggestions could not be loaded.</p>
        ) : scouts.length === 0 ? (
          <p className="text-sm text-muted-foreground">No suggestions right now.</p>
        ) : (
          <ul className="-mx-5 flex snap-x gap-3 overflow-x-auto px-5 pb-1 lg:mx-0 lg:flex-col lg:gap-0 lg:divide-y lg:divide-border lg:overflow-visible lg:px-0 lg:pb-0">
            {scouts.map((scout) => {
              const name = scout.name || scout.username;
              return (
                <li
                  key={scout.id}
                  className="flex w-40 shrink-0 snap-start flex-col items-center gap-3 rounded-lg border border-border p-3 text-center lg:w-auto lg:flex-row lg:rounded-none lg:border-0 lg:px-0 lg:py-2.5 lg:text-left lg:first:pt-0 lg:last:pb-0"
                >
                  <Link
                    to={`/scout/${scout.id}`}
                    className="flex w-full min-w-0 flex-col items-center gap-2 lg:flex-1 lg:flex-row lg:gap-3"
                  >
                    <Avatar src={scout.avatarUrl} name={name} size="sm" />
                    <span className="w-full min-w-0">
                      <span className="block truncate text-sm font-semibold hover:text-primary">
                        {name}
                      </span>
                      <span className="block truncate text-xs text-muted-foreground">
                        @{scout.username} · {scout.points} pts
                      </span>
                    </span>
                  </Link>
                  <FollowScoutButton
                    userId={scout.id}
                    name={name}
                    size="sm"
                    className="w-full lg:w-auto"
                  />
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
