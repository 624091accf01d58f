import { BadgeCheck, MessageSquare } from 'lucide-react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button-classes';
import { Skeleton } from '@/components/ui/skeleton';
import { displayAge } from '@/lib/display';
import { ManagedBadge } from '@/components/managed-badge';
import { CoachBadge } from '@/components/coach-badge';

import type { Nomination } from '../api/types';

import { NOT_SPECIFIED } from './labels';
import { PlayerAvatar } from './player-avatar';
import { PlayerHeadSkeleton } from './player-head-skeleton';
import { VoteButton } from './vote-button';
import { VoteCount } from './vote-count';

type HeadingLevel = 2 | 3;

/**
 * A nominated player: name, position, age (or graduation), club, nationality, votes, skills,
 * who nominated them, a link to the profile and the VOTE / VOTED button.
 */
export function NominationCard({
  nomination,
  headingLevel = 3,
}: {
  nomination: Nomination;
  /** 2 where the cards sit right under the page's h1, 3 under a section's h2. */
  headingLevel?: HeadingLevel;
}) {
  const { player, nominatedBy } = nomination;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { age, graduation } = displayAge(player);
  const headingId = `nomination-${nomination.id}-name`;
  return (
    <article
      aria-labelledby={headingId}
      data-testid="nomination-card"
      className="flex flex-col rounded-xl border border-border bg-surface shadow-sm transition-shadow hover:shadow-md"
    >
      <div className="flex items-start gap-3 p-5 pb-3">
        <PlayerAvatar name={player.name} />
        <div className="min-w-0 flex-1">
          <Heading
            id={headingId}
            className="flex items-start gap-1.5 text-lg leading-tight font-semibold"
          >
            <span dir="auto" className="line-clamp-2 min-w-0 wrap-anywhere" title={player.name}>
              {player.name}
            </span>
            {player.verified && (
              <BadgeCheck
                className="mt-0.5 size-4 shrink-0 text-primary"
                aria-label="Verified player"
              />
            )}
          </Heading>
          <p dir="auto" className="mt-0.5 truncate text-sm text-muted-foreground">
            {player.position}
          </p>
          {player.managedBy && (
            <div className="mt-1">
              <ManagedBadge managedBy={player.managedBy} />
            </div>
          )}
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1">
          <VoteCount count={nomination.voteCount} />
          {nomination.commentCount > 0 && (
            <span className="inline-flex items-center gap-1 text-xs text-muted-foreground tabular-nums">
              <MessageSquare className="size-3.5" aria-hidden="true" />
              <span data-testid="comment-count">{nomination.commentCount}</span>
              <span className="sr-only">
                {nomination.commentCount === 1 ? 'comment' : 'comments'}
              </span>
            </span>
          )}
        </div>
      </div>

      {(age || graduation) && (
        <div className="flex flex-wrap gap-2 px-5">
          {age && <Badge variant="primary">{age}</Badge>}
          {graduation && <Badge variant="purple">{graduation}</Badge>}
        </div>
      )}

      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 px-5 text-sm">
        <div className="min-w-0">
          <dt className="text-xs font-medium text-muted-foreground uppercase">Club</dt>
          <dd dir="auto" className="truncate font-medium">
            {player.club || NOT_SPECIFIED}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium text-muted-foreground uppercase">Nationality</dt>
          <dd className="truncate font-medium">{player.nationality || NOT_SPECIFIED}</dd>
        </div>
      </dl>

      {player.skills && (
        <p className="mt-3 line-clamp-3 px-5 text-sm text-muted-foreground">{player.skills}</p>
      )}

      <p className="mt-auto px-5 pt-4 text-xs text-muted-foreground">
        Nominated by{' '}
        <span dir="auto" className="font-medium wrap-anywhere text-foreground">
          {nominatedBy.name}
        </span>{' '}
        <CoachBadge userId={nominatedBy.id} className="align-middle" />
      </p>

      <div className="mt-4 flex items-center gap-2 border-t border-border p-4">
        <Link
          to={`/nominations/${nomination.id}`}
          className={buttonClasses({ variant: 'outline', className: 'flex-1' })}
        >
          Player Profile
        </Link>
        <VoteButton nomination={nomination} />
      </div>
    </article>
  );
}

export function NominationCardSkeleton() {
  return (
    <div
      data-testid="nomination-card-skeleton"
      className="flex flex-col rounded-xl border border-border bg-surface p-5 shadow-sm"
    >
      <PlayerHeadSkeleton size="card" />
      <div className="mt-4 flex gap-2">
        <Skeleton className="h-5 w-16 rounded-full" />
        <Skeleton className="h-5 w-20 rounded-full" />
      </div>
      <div className="mt-4 grid grid-cols-2 gap-4">
        <Skeleton className="h-9" />
        <Skeleton className="h-9" />
      </div>
      <Skeleton className="mt-4 h-12" />
      <div className="mt-5 flex gap-2 border-t border-border pt-4">
        <Skeleton className="h-10 flex-1" />
        <Skeleton className="h-10 w-28" />
      </div>
    </div>
  );
}

/**
 * Columns of minmax(0, 1fr), and items free to shrink below their content: however long a name,
 * the screen sets a card's width, never the card the screen's.
 */
export const gridClasses = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

/** Cards in a responsive grid: one column on phones, two on tablets, three on desktops. */
export function NominationGrid({
  nominations,
  headingLevel,
}: {
  nominations: Nomination[];
  headingLevel?: HeadingLevel;
}) {
  return (
    <ul className={gridClasses} aria-label="Nominations">
      {nominations.map((nomination) => (
        <li key={nomination.id} className="flex min-w-0 [&>*]:w-full [&>*]:min-w-0">
          <NominationCard nomination={nomination} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}

export function NominationGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <div className={gridClasses} role="status" aria-label="Loading nominations">
      {Array.from({ length: count }, (_, index) => (
        <NominationCardSkeleton key={index} />
      ))}
    </div>
  );
}
