import { ArrowLeft, MapPin, RefreshCw, Shield, Users } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-classes';
import { Card } from '@/components/ui/card';
import { DocumentTitle } from '@/components/ui/document-title';
import { Skeleton } from '@/components/ui/skeleton';
import { activityAuthor, activityText, relativeTime } from '@/lib/activity-text';
import { ApiError } from '@/lib/api-client';
import { countOf } from '@/lib/display';
import { sportLabel } from '@/lib/sport-label';

import { useClub } from '../api/clubs';
import type { Club, ClubNomination } from '../api/types';

import { FollowClubButton } from './follow-club-button';
import { MergeClubs } from './merge-clubs';

type Viewer = { signedIn: boolean; isAdmin: boolean };

function ClubNotFound() {
  return (
    <div className="flex flex-col items-center py-16 text-center">
      <DocumentTitle title="Club Not Found" />
      <h1 className="mt-4 text-2xl font-bold">Club Not Found</h1>
      <p className="mt-2 max-w-sm text-muted-foreground">
        This club does not exist, or it was merged into another.
      </p>
      <Link to="/nominations" className={buttonClasses({ className: 'mt-6' })}>
        <ArrowLeft aria-hidden="true" />
        Back to Nominations
      </Link>
    </div>
  );
}

/** A club's page: who plays there, their votes (live), its followers and recent activity. */
export function ClubProfile({ clubId, viewer }: { clubId: number | null; viewer: Viewer }) {
  const club = useClub(clubId);
  if (clubId === null) return <ClubNotFound />;
  if (club.isPending) {
    return (
      <div className="flex flex-col gap-4" aria-busy="true">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (club.isError) {
    if (club.error instanceof ApiError && club.error.status === 404) return <ClubNotFound />;
    return (
      <div className="rounded-xl border border-border bg-surface p-8 text-center shadow-sm">
        <p className="font-semibold">This club could not be loaded.</p>
        <Button
          variant="outline"
          className="mt-4"
          loading={club.isRefetching}
          onClick={() => void club.refetch()}
        >
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  return <ClubDetails club={club.data} viewer={viewer} />;
}

function PlayerRow({ row }: { row: ClubNomination }) {
  const { player } = row;
  const age = player.age !== null ? `${player.age} YRS` : null;
  return (
    <li className="flex items-center justify-between gap-3 rounded-lg border border-border bg-surface px-4 py-3">
      <div className="min-w-0">
        <Link
          to={`/nominations/${row.nominationId}`}
          className="font-semibold break-words hover:underline"
        >
          {player.name}
        </Link>
        <p className="text-sm text-muted-foreground">
          {[player.position, age, player.underReview ? 'Under review' : null]
            .filter(Boolean)
            .join(' · ')}
        </p>
      </div>
      <span
        className="shrink-0 rounded-full bg-muted px-3 py-1 text-sm font-semibold tabular-nums"
        aria-label={`${player.name}: ${countOf(row.voteCount, 'vote')}`}
        data-testid={`club-votes-${row.nominationId}`}
      >
        {countOf(row.voteCount, 'vote')}
      </span>
    </li>
  );
}

function ClubDetails({ club, viewer }: { club: Club; viewer: Viewer }) {
  return (
    <div className="flex flex-col gap-6">
      <DocumentTitle title={club.name} />
      <Card className="p-5">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight break-words">
              <Shield className="size-7 shrink-0 text-primary" aria-hidden="true" />
              {club.name}
            </h1>
            <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
              <span>{sportLabel(club.sport)}</span>
              {club.location && (
                <span className="inline-flex items-center gap-1">
                  <MapPin className="size-4" aria-hidden="true" />
                  {club.location}
                </span>
              )}
              <span className="inline-flex items-center gap-1">
                <Users className="size-4" aria-hidden="true" />
                {countOf(club.followerCount, 'follower')}
              </span>
            </p>
            {club.description && (
              <p className="mt-3 text-sm whitespace-pre-line">{club.description}</p>
            )}
          </div>
          {viewer.signedIn ? (
            <FollowClubButton club={club} />
          ) : (
            <Link to="/login" className={buttonClasses({ variant: 'outline' })}>
              Sign in to follow
            </Link>
          )}
        </div>
      </Card>

      <section aria-labelledby="club-players">
        <h2 id="club-players" className="mb-3 text-xl font-semibold">
          Players
        </h2>
        {!viewer.signedIn && (
          <p className="mb-3 text-sm text-muted-foreground">
            Players under 13 are shown to signed-in members only.
          </p>
        )}
        {club.players.length === 0 ? (
          <p className="text-muted-foreground">
            No approved nominations of this club’s players yet.
          </p>
        ) : (
          <ol className="flex flex-col gap-2" aria-label={`${club.name} players`}>
            {club.players.map((row) => (
              <PlayerRow key={row.nominationId} row={row} />
            ))}
          </ol>
        )}
      </section>

      {viewer.signedIn && (
        <section aria-labelledby="club-activity">
          <h2 id="club-activity" className="mb-3 text-xl font-semibold">
            Recent activity
          </h2>
          {club.activity.length === 0 ? (
            <p className="text-muted-foreground">Nothing yet.</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {club.activity.map((activity) => (
                <li key={activity.id}>
                  <span className="font-medium">{activityAuthor(activity)}</span>{' '}
                  {activityText(activity)}{' '}
                  <span className="text-muted-foreground">{relativeTime(activity.createdAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {viewer.isAdmin && <MergeClubs club={club} />}
    </div>
  );
}
