import { format } from 'date-fns';
import {
  ArrowLeft,
  CalendarDays,
  ChevronRight,
  Mail,
  MapPin,
  Phone,
  RefreshCw,
  Star,
  Trophy,
  UserSearch,
  Users,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { CoachBadge } from '@/components/coach-badge';
import { Avatar } from '@/components/ui/avatar';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-classes';
import { Card } from '@/components/ui/card';
import { Detail } from '@/components/ui/detail';
import { DocumentTitle } from '@/components/ui/document-title';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { sportLabel } from '@/lib/sport-label';
import { countOf } from '@/lib/display';

import { RECENT_NOMINATIONS_SHOWN, useScout, useScoutNominations } from '../api/get-scout';
import type { Scout } from '../api/types';

import { FollowScoutButton } from './follow-scout-button';

type ScoutProfileProps = {
  /** The scout's id from the address; null when it is not a number. */
  userId: number | null;
  viewerId: number;
  /** Shown under the profile once it is loaded (never under "Scout Not Found"). */
  footer?: ReactNode;
};

export function ScoutProfile({ userId, viewerId, footer }: ScoutProfileProps) {
  if (userId === null) return <ScoutNotFound />;
  return <ScoutProfileLoader userId={userId} viewerId={viewerId} footer={footer} />;
}

function BackToDiscover() {
  return (
    <Link
      to="/discover"
      className="mb-6 inline-flex items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to Discover
    </Link>
  );
}

function ScoutNotFound() {
  return (
    <div className="flex flex-col items-center py-16 text-center">
      <DocumentTitle title="Scout Not Found" />
      <span className="flex size-14 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <UserSearch className="size-7" aria-hidden="true" />
      </span>
      <h1 className="mt-4 text-2xl font-bold">Scout Not Found</h1>
      <p className="mt-2 max-w-sm text-muted-foreground">
        This scout does not exist, or their profile is not visible to you.
      </p>
      <Link to="/discover" className={buttonClasses({ className: 'mt-6' })}>
        <ArrowLeft aria-hidden="true" />
        Back to Discover
      </Link>
    </div>
  );
}

function ScoutProfileLoader({
  userId,
  viewerId,
  footer,
}: {
  userId: number;
  viewerId: number;
  footer: ReactNode;
}) {
  const scout = useScout(userId);

  if (scout.isPending) return <ScoutProfileSkeleton />;
  if (scout.isError) {
    if (scout.error instanceof ApiError && scout.error.status === 404) return <ScoutNotFound />;
    return (
      <div>
        <BackToDiscover />
        <div className="rounded-xl border border-border bg-surface p-8 text-center shadow-sm">
          <p className="font-semibold">This scout could not be loaded.</p>
          <p className="mt-1 text-sm text-muted-foreground">{scout.error.message}</p>
          <Button
            variant="outline"
            className="mt-4"
            loading={scout.isRefetching}
            onClick={() => void scout.refetch()}
          >
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        </div>
      </div>
    );
  }
  return (
    <>
      <ScoutDetails scout={scout.data} isSelf={scout.data.id === viewerId} />
      {footer}
    </>
  );
}

function ScoutDetails({ scout, isSelf }: { scout: Scout; isSelf: boolean }) {
  const displayName = scout.name || scout.username;
  return (
    <div>
      <DocumentTitle title={displayName} />
      <BackToDiscover />
      <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start">
        <Card className="overflow-hidden">
          <div className="h-20 bg-gradient-to-r from-primary to-purple" aria-hidden="true" />
          <div className="-mt-12 flex flex-col items-center px-5 pb-6 text-center">
            <Avatar
              src={scout.avatarUrl}
              name={displayName}
              size="xl"
              className="ring-4 ring-surface"
            />
            <h1 className="mt-3 text-2xl font-bold break-words">{scout.name}</h1>
            <p className="text-sm text-muted-foreground">@{scout.username}</p>
            <CoachBadge userId={scout.id} className="mt-2" />
            <div className="mt-3 flex flex-wrap justify-center gap-2 text-sm">
              <span className="inline-flex items-center gap-1 rounded-full bg-secondary-soft px-3 py-1 font-semibold text-secondary">
                <Star className="size-4 fill-current" aria-hidden="true" />
                {countOf(scout.points, 'point')}
              </span>
              <span className="inline-flex items-center gap-1 rounded-full bg-muted px-3 py-1 font-medium">
                <Users className="size-4 text-muted-foreground" aria-hidden="true" />
                {scout.followerCount} {scout.followerCount === 1 ? 'follower' : 'followers'}
              </span>
            </div>
            {isSelf ? (
              <Link
                to="/profile"
                className={buttonClasses({ variant: 'outline', className: 'mt-5 w-full' })}
              >
                Edit your profile
              </Link>
            ) : (
              <FollowScoutButton userId={scout.id} name={displayName} className="mt-5 w-full" />
            )}
          </div>
        </Card>

        <div className="flex min-w-0 flex-col gap-6">
          <Card className="p-5">
            <h2 className="text-lg font-semibold">About</h2>
            <p className="mt-2 text-sm whitespace-pre-line text-foreground/80">
              {scout.bio || <span className="text-muted-foreground italic">No bio yet.</span>}
            </p>
            <dl className="mt-5 grid gap-4 sm:grid-cols-2">
              {scout.location && (
                <Detail icon={MapPin} label="Location">
                  {scout.location}
                </Detail>
              )}
              {scout.favoriteSport && (
                <Detail icon={Trophy} label="Favorite sport">
                  {sportLabel(scout.favoriteSport)}
                </Detail>
              )}
              {scout.email && (
                <Detail icon={Mail} label="Email">
                  <a href={`mailto:${scout.email}`} className="text-primary hover:underline">
                    {scout.email}
                  </a>
                </Detail>
              )}
              {scout.phoneNumber && (
                <Detail icon={Phone} label="Phone">
                  <a href={`tel:${scout.phoneNumber}`} className="text-primary hover:underline">
                    {scout.phoneNumber}
                  </a>
                </Detail>
              )}
              <Detail icon={CalendarDays} label="Member since">
                {format(new Date(scout.createdAt), 'MMMM yyyy')}
              </Detail>
            </dl>
          </Card>
          <RecentNominations userId={scout.id} total={scout.nominationCount} />
        </div>
      </div>
    </div>
  );
}

function RecentNominations({ userId, total }: { userId: number; total: number }) {
  const nominations = useScoutNominations(userId, { enabled: total > 0 });

  return (
    <Card className="p-5">
      <h2 className="text-lg font-semibold">Recent Nominations ({total})</h2>
      {total === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">No nominations yet.</p>
      ) : nominations.isPending ? (
        <ul className="mt-4 flex flex-col gap-2" aria-label="Loading nominations">
          {Array.from({ length: Math.min(total, RECENT_NOMINATIONS_SHOWN) }, (_, index) => (
            <li key={index}>
              <Skeleton className="h-16 w-full rounded-lg" />
            </li>
          ))}
        </ul>
      ) : nominations.isError ? (
        <p className="mt-3 text-sm text-destructive">Nominations could not be loaded.</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-2">
          {nominations.data.slice(0, RECENT_NOMINATIONS_SHOWN).map((nomination) => (
            <li key={nomination.id}>
              <Link
                to={`/nominations/${nomination.id}`}
                className="flex items-center gap-3 rounded-lg border border-border p-3 transition-colors hover:bg-muted"
              >
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-soft font-bold text-primary">
                  {Array.from(nomination.player.name)[0]?.toUpperCase() ?? '?'}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold">{nomination.player.name}</span>
                  <span className="block text-sm text-muted-foreground">
                    {nomination.player.position} · {sportLabel(nomination.player.sport)}
                  </span>
                </span>
                <StatusBadge status={nomination.status} />
                <ChevronRight
                  className="size-4 shrink-0 text-muted-foreground"
                  aria-hidden="true"
                />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function ScoutProfileSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading scout">
      <Skeleton className="mb-6 h-5 w-36" />
      <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <Skeleton className="h-80 rounded-xl" />
        <div className="flex flex-col gap-6">
          <Skeleton className="h-48 rounded-xl" />
          <Skeleton className="h-64 rounded-xl" />
        </div>
      </div>
    </div>
  );
}
