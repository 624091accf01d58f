import { Pencil } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';

import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { displayAge } from '@/lib/display';
import { sportLabel } from '@/lib/sport-label';

import { useUserNominations } from '../api/get-user-nominations';
import { flattenPages } from '../api/paged';
import type { Nomination } from '../api/types';

import { EditPlayerDialog } from './edit-player-dialog';
import { gridClasses } from './nomination-card';
import { NOT_SPECIFIED } from './labels';
import { PlayerAvatar } from './player-avatar';
import { SectionHeader } from './section-header';

/** The signed-in user's own nominations, every status; shown only when there are some. */
export function MyNominations({ userId }: { userId: number }) {
  const query = useUserNominations(userId);
  const nominations = useMemo(() => flattenPages(query.data), [query.data]);
  if (nominations.length === 0) return null;

  return (
    <section aria-labelledby="my-nominations" className="mt-12">
      <SectionHeader id="my-nominations" title="My Nominations" />
      <ul className={gridClasses}>
        {nominations.map((nomination) => (
          <li key={nomination.id} className="flex min-w-0 [&>*]:w-full [&>*]:min-w-0">
            <MyNominationCard nomination={nomination} />
          </li>
        ))}
      </ul>
      {query.hasNextPage && (
        <div className="mt-6 flex justify-center">
          <Button
            variant="outline"
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            Show more
          </Button>
        </div>
      )}
    </section>
  );
}

function MyNominationCard({ nomination }: { nomination: Nomination }) {
  const { player } = nomination;
  const { age } = displayAge(player);
  return (
    <article
      aria-label={player.name}
      className="flex flex-col rounded-xl border border-border bg-surface p-5 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <PlayerAvatar name={player.name} />
        <div className="min-w-0 flex-1">
          <h3 className="line-clamp-2 text-lg leading-tight font-semibold wrap-anywhere">
            <Link to={`/nominations/${nomination.id}`} dir="auto" className="hover:text-primary">
              {player.name}
            </Link>
          </h3>
          <p className="truncate text-sm text-muted-foreground">{player.position}</p>
        </div>
        <StatusBadge status={nomination.status} />
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-3 text-sm">
        <div className="min-w-0">
          <dt className="text-xs font-medium text-muted-foreground uppercase">Club</dt>
          <dd className="truncate font-medium">{player.club || NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-muted-foreground uppercase">Age</dt>
          <dd className="font-medium">{age ?? NOT_SPECIFIED}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium text-muted-foreground uppercase">Sport</dt>
          <dd className="truncate font-medium">{sportLabel(player.sport)}</dd>
        </div>
      </dl>
      <div className="mt-auto pt-4">
        <EditPlayerDialog
          player={player}
          trigger={
            <Button variant="outline" size="sm" className="w-full">
              <Pencil aria-hidden="true" />
              Edit Player
            </Button>
          }
        />
      </div>
    </article>
  );
}
