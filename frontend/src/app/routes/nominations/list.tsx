import { Plus, SearchX, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { useNominations } from '@/features/nominations/api/get-nominations';
import { nominationKeys } from '@/features/nominations/api/nomination-keys';
import { checkSearch } from '@/features/nominations/api/search';
import { EmptyState } from '@/features/nominations/components/empty-state';
import { NominatePlayerDialog } from '@/features/nominations/components/nominate-player-dialog';
import { NominationFeed } from '@/features/nominations/components/nomination-feed';
import { SearchField } from '@/features/nominations/components/search-field';
import { useDebouncedValue } from '@/features/nominations/hooks/use-debounced-value';
import { useSport } from '@/stores/sport';

const SEARCH_DEBOUNCE_MS = 300;

const nominateButton = (label: string) => (
  <NominatePlayerDialog
    trigger={
      <Button>
        <Plus aria-hidden="true" />
        {label}
      </Button>
    }
  />
);

export default function NominationsPage() {
  const { sport, option } = useSport();
  const [searchParams, setSearchParams] = useSearchParams();
  const [text, setText] = useState(() => searchParams.get('q') ?? '');
  const search = checkSearch(text);
  const q = useDebouncedValue(search.q, SEARCH_DEBOUNCE_MS);
  const filters = { sport, q };
  const query = useNominations(filters);

  // The search is kept in the address, so a reload or a shared link shows the same results.
  const inAddress = searchParams.get('q') ?? '';
  useEffect(() => {
    if (q !== inAddress) setSearchParams(q ? { q } : {}, { replace: true });
  }, [q, inAddress, setSearchParams]);

  return (
    <>
      <PageHeader
        title="All Nominations"
        description={`Every young ${option.label.toLowerCase()} athlete the community has nominated.`}
        actions={nominateButton('Nominate Player')}
      />
      <div className="mb-6 max-w-xl">
        <SearchField
          value={text}
          onChange={setText}
          error={search.error}
          searching={search.q !== q || (query.isFetching && query.isPlaceholderData)}
        />
      </div>
      <NominationFeed
        query={query}
        listKey={nominationKeys.list(filters)}
        empty={
          q ? (
            <EmptyState
              icon={SearchX}
              title="No Results Found"
              description={`No nominations match "${q}". Try another name, position, nationality, club or nominator.`}
              action={
                <Button variant="outline" onClick={() => setText('')}>
                  Show all nominations
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={Users}
              title="No Nominations Yet"
              description={`Nobody has nominated a ${option.label.toLowerCase()} player yet. Be the first!`}
              action={nominateButton('Nominate Player')}
            />
          )
        }
      />
    </>
  );
}
