import { format } from 'date-fns';
import { BadgeCheck, ThumbsUp } from 'lucide-react';
import { Link } from 'react-router';

import { Badge, StatusBadge } from '@/components/ui/badge';
import { displayAge } from '@/lib/display';
import { sportLabel } from '@/lib/sport-label';

import type { AdminNomination } from '../api/types';

const NOT_SPECIFIED = 'Not specified';

/** Who was nominated, by whom and when: the part every admin list shows of a nomination. */
export function NominationSummary({
  nomination,
  showStatus = false,
}: {
  nomination: AdminNomination;
  showStatus?: boolean;
}) {
  const { player, nominatedBy } = nomination;
  const { age, graduation } = displayAge(player);
  const facts = [
    player.position,
    sportLabel(player.sport),
    [age, graduation].filter(Boolean).join(' · '),
    player.club || NOT_SPECIFIED,
    player.nationality || NOT_SPECIFIED,
  ].filter(Boolean);

  return (
    <div className="min-w-0">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to={`/nominations/${nomination.id}`}
          dir="auto"
          className="min-w-0 text-lg font-semibold wrap-anywhere hover:text-primary hover:underline"
        >
          {player.name}
        </Link>
        {player.verified && (
          <Badge variant="primary">
            <BadgeCheck className="size-3.5" aria-hidden="true" />
            Verified
          </Badge>
        )}
        {showStatus && <StatusBadge status={nomination.status} />}
      </div>
      <p className="mt-1 text-sm wrap-anywhere text-muted-foreground">{facts.join(' · ')}</p>
      <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
        <span className="min-w-0 wrap-anywhere">
          Nominated by{' '}
          <span dir="auto" className="font-medium text-foreground">
            {nominatedBy.name}
          </span>{' '}
          (@{nominatedBy.username})
        </span>
        <span>{format(new Date(nomination.createdAt), 'MMMM d, yyyy')}</span>
        <span className="inline-flex items-center gap-1 font-medium text-foreground tabular-nums">
          <ThumbsUp className="size-3.5" aria-hidden="true" />
          {nomination.voteCount} {nomination.voteCount === 1 ? 'vote' : 'votes'}
        </span>
      </p>
    </div>
  );
}
