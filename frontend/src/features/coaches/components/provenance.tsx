import { format } from 'date-fns';
import { Award, BadgeCheck, CalendarClock, ShieldCheck, UserPlus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { useEndorsements } from '../api/endorsements';

type ProvenanceProps = {
  playerId: number;
  nominatedBy: { id: number; username: string };
  managedBy: 'family' | 'athlete' | null | undefined;
  verified: boolean;
  /** When the player's latest published update was posted (the updates feature reads it). */
  latestUpdateAt?: string | null;
};

function Fact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2">
      {icon}
      <span>{children}</span>
    </li>
  );
}

/**
 * Where the page's facts come from: the community's nomination, the family's confirmation (a
 * claim an admin approved), the admins' verification, the verified coaches' endorsements, and
 * how recent the page's news is.
 */
export function Provenance({
  playerId,
  nominatedBy,
  managedBy,
  verified,
  latestUpdateAt,
}: ProvenanceProps) {
  const endorsed = useEndorsements(playerId).data?.count;
  const iconClasses = 'size-4 shrink-0 text-muted-foreground';
  return (
    <section aria-labelledby="provenance" className="mt-6">
      <h2 id="provenance" className="sr-only">
        Where this comes from
      </h2>
      <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm" data-testid="provenance">
        <Fact icon={<UserPlus className={iconClasses} aria-hidden="true" />}>
          Nominated by{' '}
          <Link to={`/scout/${nominatedBy.id}`} className="font-medium underline">
            @{nominatedBy.username}
          </Link>
        </Fact>
        {managedBy && (
          <Fact icon={<ShieldCheck className={iconClasses} aria-hidden="true" />}>
            {managedBy === 'family' ? 'Confirmed by the family' : 'Confirmed by the athlete'}
          </Fact>
        )}
        {verified && (
          <Fact icon={<BadgeCheck className={iconClasses} aria-hidden="true" />}>
            Verified by admins
          </Fact>
        )}
        {endorsed !== undefined && endorsed > 0 && (
          <Fact icon={<Award className={iconClasses} aria-hidden="true" />}>
            Endorsed by {endorsed} verified {endorsed === 1 ? 'coach' : 'coaches'}
          </Fact>
        )}
        {latestUpdateAt && (
          <Fact icon={<CalendarClock className={iconClasses} aria-hidden="true" />}>
            Latest update{' '}
            <time dateTime={latestUpdateAt}>
              {format(new Date(latestUpdateAt), 'MMMM d, yyyy')}
            </time>
          </Fact>
        )}
      </ul>
    </section>
  );
}
