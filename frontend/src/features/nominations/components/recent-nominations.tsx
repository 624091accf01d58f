import { ArrowRight, Sparkles } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-classes';
import { sportOption, type Sport } from '@/stores/sport';

import { useRecentNominations } from '../api/get-recent-nominations';

import { EmptyState } from './empty-state';
import { ErrorState } from './error-state';
import { NominationGrid, NominationGridSkeleton } from './nomination-card';
import { NominatePlayerDialog } from './nominate-player-dialog';
import { SectionHeader } from './section-header';

/** The newest nominations of the sport, with View All and a way to start when there are none. */
export function RecentNominations({ sport }: { sport: Sport }) {
  const query = useRecentNominations(sport);
  return (
    <section aria-labelledby="recent-nominations" className="mt-12">
      <SectionHeader
        id="recent-nominations"
        title="Recent Nominations"
        action={
          <Link
            to="/nominations"
            className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'text-primary' })}
          >
            View All
            <ArrowRight aria-hidden="true" />
          </Link>
        }
      />
      {query.isPending ? (
        <NominationGridSkeleton />
      ) : query.isError ? (
        <ErrorState
          title="Could not load recent nominations"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isRefetching}
        />
      ) : query.data.length === 0 ? (
        <EmptyState
          icon={Sparkles}
          title="No nominations yet"
          description={`Be the first to put a young ${sportOption(sport).label.toLowerCase()} talent in front of the community.`}
          action={<NominatePlayerDialog trigger={<Button>Start Nomination</Button>} />}
        />
      ) : (
        <NominationGrid nominations={query.data} />
      )}
    </section>
  );
}
