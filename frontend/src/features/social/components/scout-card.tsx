import { MapPin, Star, Trophy } from 'lucide-react';
import { Link } from 'react-router';

import { Avatar } from '@/components/ui/avatar';
import { buttonClasses } from '@/components/ui/button-classes';
import { CoachBadge } from '@/components/coach-badge';
import { sportLabel } from '@/lib/sport-label';
import { countOf } from '@/lib/display';

import type { ScoutCard as ScoutCardData } from '../api/types';

export function ScoutCard({ scout }: { scout: ScoutCardData }) {
  const displayName = scout.name || scout.username;
  return (
    <li className="flex flex-col rounded-xl border border-border bg-surface p-5 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md">
      <div className="flex items-center gap-4">
        <Avatar src={scout.avatarUrl} name={displayName} size="lg" />
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-muted-foreground">@{scout.username}</p>
          <h2 className="truncate text-lg font-semibold">{scout.name}</h2>
          <CoachBadge userId={scout.id} />
          <p className="mt-0.5 inline-flex items-center gap-1 text-sm font-semibold text-secondary">
            <Star className="size-4 fill-current" aria-hidden="true" />
            {countOf(scout.points, 'point')}
          </p>
        </div>
      </div>
      <p className="mt-4 line-clamp-3 min-h-[3lh] text-sm text-foreground/80">
        {scout.bio || <span className="text-muted-foreground italic">No bio yet.</span>}
      </p>
      <ul className="mt-4 flex flex-wrap gap-2 text-xs font-medium">
        {scout.location && (
          <li className="inline-flex items-center gap-1 rounded-full bg-muted px-2.5 py-1">
            <MapPin className="size-3.5 text-muted-foreground" aria-hidden="true" />
            <span className="sr-only">Location: </span>
            {scout.location}
          </li>
        )}
        {scout.favoriteSport && (
          <li className="inline-flex items-center gap-1 rounded-full bg-primary-soft px-2.5 py-1 text-primary">
            <Trophy className="size-3.5" aria-hidden="true" />
            <span className="sr-only">Favorite sport: </span>
            {sportLabel(scout.favoriteSport)}
          </li>
        )}
      </ul>
      <Link
        to={`/scout/${scout.id}`}
        className={buttonClasses({ variant: 'outline', className: 'mt-5 w-full' })}
        aria-label={`View Profile of ${displayName}`}
      >
        View Profile
      </Link>
    </li>
  );
}
