import { format } from 'date-fns';
import { ArrowLeft, BadgeCheck, CalendarDays, ExternalLink, Pencil, SearchX } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';

import { Badge, StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-classes';
import { DocumentTitle } from '@/components/ui/document-title';
import { Detail } from '@/components/ui/detail';
import { Skeleton } from '@/components/ui/skeleton';
import { CoachBadge } from '@/components/coach-badge';
import { ManagedBadge } from '@/components/managed-badge';
import { displayAge } from '@/lib/display';
import { LiveRegion } from '@/components/ui/live-region';
import { useVoteCountAnnouncements } from '@/lib/live-announcer';
import { sportLabel } from '@/lib/sport-label';

import type { Nomination } from '../api/types';

import { ClubLink } from './club-link';
import { EditPlayerDialog } from './edit-player-dialog';
import { EmptyState } from './empty-state';
import { FollowPlayerButton } from './follow-player-button';
import { NOT_SPECIFIED } from './labels';
import { PlayerAvatar } from './player-avatar';
import { PlayerHeadSkeleton } from './player-head-skeleton';
import { VoteButton } from './vote-button';

const cardClasses = 'rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-6';

export function BackToNominations() {
  return (
    <Link
      to="/nominations"
      className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'mb-4 -ml-3' })}
    >
      <ArrowLeft aria-hidden="true" />
      All nominations
    </Link>
  );
}

/**
 * The player profile of a nomination: who the player is, the community's votes, who nominated
 * them and when, with Vote, Follow Player and (for an admin or the nominator) Edit.
 */
export function NominationProfile({
  nomination,
  canEdit,
}: {
  nomination: Nomination;
  canEdit: boolean;
}) {
  const { player, nominatedBy } = nomination;
  const { age } = displayAge(player);
  const countMessage = useVoteCountAnnouncements(useMemo(() => [nomination], [nomination]));
  return (
    <article aria-labelledby="player-name">
      <DocumentTitle title={player.name} />
      <LiveRegion message={countMessage} />
      <BackToNominations />

      <header className={`${cardClasses} relative overflow-hidden`}>
        <div
          data-testid="profile-band"
          className="absolute inset-x-0 top-0 h-20 bg-gradient-to-r from-primary to-purple sm:h-24"
        />
        <div className="relative flex flex-col gap-5 pt-8 sm:flex-row sm:items-end sm:pt-12">
          <PlayerAvatar
            name={player.name}
            className="size-20 border-4 border-surface text-3xl sm:size-24"
          />
          {/* Side by side (sm and up) the row starts on the band, where the avatar overlaps it;
              the name's column is bottom-aligned, and its top padding keeps a name of many
              lines below the band (the band is 96 px: the card's 24 px padding, the row's
              48 px, then these 32 px). */}
          <div className="min-w-0 flex-1 sm:pt-8">
            <div className="flex flex-wrap items-center gap-2">
              <h1
                id="player-name"
                className="text-2xl font-extrabold tracking-tight break-words sm:text-3xl"
              >
                {player.name}
              </h1>
              {player.verified && (
                <Badge variant="primary">
                  <BadgeCheck className="size-3.5" aria-hidden="true" />
                  Verified
                </Badge>
              )}
              <ManagedBadge managedBy={player.managedBy} />
              <StatusBadge status={nomination.status} />
            </div>
            <p className="mt-1 text-muted-foreground">
              {player.position} · {sportLabel(player.sport)}
            </p>
          </div>
          <div className="flex items-center gap-4 sm:flex-col sm:items-end sm:gap-1">
            <p className="text-4xl font-extrabold text-secondary tabular-nums">
              {nomination.voteCount}
            </p>
            <p className="text-sm font-medium text-muted-foreground">Community Votes</p>
          </div>
        </div>
        <div className="relative mt-6 flex flex-wrap gap-2 border-t border-border pt-5">
          <VoteButton nomination={nomination} />
          <FollowPlayerButton player={player} />
          {canEdit && (
            <EditPlayerDialog
              player={player}
              trigger={
                <Button variant="outline">
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
              }
            />
          )}
        </div>
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="player-details" className={`${cardClasses} lg:col-span-2`}>
          <h2 id="player-details" className="text-lg font-semibold">
            Player Details
          </h2>
          <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-5 sm:grid-cols-3">
            <Detail label="Age">{age ?? NOT_SPECIFIED}</Detail>
            {player.graduationYear != null && (
              <Detail label="Graduation Year">{player.graduationYear}</Detail>
            )}
            <Detail label="Position">{player.position}</Detail>
            <Detail label="Sport">{sportLabel(player.sport)}</Detail>
            <Detail label="Nationality">{player.nationality || NOT_SPECIFIED}</Detail>
            <Detail label="Current Club/School">
              <ClubLink playerId={player.id} club={player.club} />
            </Detail>
          </dl>

          <h3 className="mt-8 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
            Skills &amp; Strengths
          </h3>
          <p className="mt-2 whitespace-pre-line">
            {player.skills || <span className="text-muted-foreground">{NOT_SPECIFIED}</span>}
          </p>

          {player.videoLink && (
            <a
              href={player.videoLink}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClasses({ variant: 'secondary', className: 'mt-6' })}
            >
              <ExternalLink aria-hidden="true" />
              Watch Highlights
            </a>
          )}
        </section>

        <aside className="flex flex-col gap-6">
          <section aria-labelledby="nominated-by" className={cardClasses}>
            <h2 id="nominated-by" className="text-lg font-semibold">
              Nominated By
            </h2>
            <Link
              to={`/scout/${nominatedBy.id}`}
              className="mt-4 flex items-center gap-3 rounded-lg p-1 hover:bg-muted"
            >
              <PlayerAvatar name={nominatedBy.name} className="size-10 text-base" />
              <span className="min-w-0">
                <span className="block truncate font-semibold">{nominatedBy.name}</span>
                <CoachBadge userId={nominatedBy.id} className="mt-1" />
                <span className="block truncate text-sm text-muted-foreground">
                  @{nominatedBy.username}
                </span>
              </span>
            </Link>
            <p className="mt-4 flex items-center gap-2 text-sm text-muted-foreground">
              <CalendarDays className="size-4" aria-hidden="true" />
              <span>
                Nominated on{' '}
                <time dateTime={nomination.createdAt}>
                  {format(new Date(nomination.createdAt), 'MMMM d, yyyy')}
                </time>
              </span>
            </p>
          </section>
        </aside>
      </div>
    </article>
  );
}

export function NominationProfileSkeleton() {
  return (
    <div role="status" aria-label="Loading nomination">
      <Skeleton className="mb-4 h-8 w-40" />
      <div className={cardClasses}>
        <PlayerHeadSkeleton size="profile" />
        <div className="mt-6 flex gap-2 border-t border-border pt-5">
          <Skeleton className="h-10 w-28" />
          <Skeleton className="h-10 w-36" />
        </div>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className={`${cardClasses} space-y-4 lg:col-span-2`}>
          <Skeleton className="h-6 w-40" />
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} className="h-10" />
            ))}
          </div>
          <Skeleton className="h-20" />
        </div>
        <div className={`${cardClasses} space-y-4`}>
          <Skeleton className="h-6 w-32" />
          <Skeleton className="h-12" />
        </div>
      </div>
    </div>
  );
}

export function NominationNotFound() {
  return (
    <>
      <DocumentTitle title="Nomination Not Found" />
      <EmptyState
        icon={SearchX}
        title="Nomination Not Found"
        description="The nomination you are looking for does not exist or has been removed."
        action={
          <Link to="/nominations" className={buttonClasses()}>
            <ArrowLeft aria-hidden="true" />
            Back to Nominations
          </Link>
        }
        headingLevel="h1"
        className="py-20"
      />
    </>
  );
}
