import { PartyPopper } from 'lucide-react';

import { PageHeader } from '@/components/ui/page-header';
import { useNeedingVotes } from '@/features/nominations/api/get-needing-votes';
import { nominationKeys } from '@/features/nominations/api/nomination-keys';
import { EmptyState } from '@/features/nominations/components/empty-state';
import { NominationFeed } from '@/features/nominations/components/nomination-feed';
import { useSport } from '@/stores/sport';

export default function NeedingVotesPage() {
  const { sport } = useSport();
  const query = useNeedingVotes(sport);
  return (
    <>
      <PageHeader
        title="Nominations Needing Votes"
        description="These nominations have fewer than 5 votes. Every vote helps a young athlete get noticed."
      />
      <NominationFeed
        query={query}
        listKey={nominationKeys.needingVotes(sport)}
        empty={
          <EmptyState
            icon={PartyPopper}
            title="ALL CAUGHT UP!"
            description="All active nominations have at least 5 votes"
          />
        }
      />
    </>
  );
}
