import { CheckCheck, Inbox, Vote } from 'lucide-react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { PageHeader } from '@/components/ui/page-header';
import { useNominations } from '@/features/nominations/api/get-nominations';
import { nominationKeys } from '@/features/nominations/api/nomination-keys';
import { flattenPages } from '@/features/nominations/api/paged';
import type { Nomination } from '@/features/nominations/api/types';
import { EmptyState } from '@/features/nominations/components/empty-state';
import { NominationFeed } from '@/features/nominations/components/nomination-feed';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useSport } from '@/stores/sport';

const voted = (nomination: Nomination) => nomination.hasVoted;
const notVoted = (nomination: Nomination) => !nomination.hasVoted;

const tabs = {
  all: {
    label: 'All Nominations',
    filter: undefined,
    empty: (
      <EmptyState
        icon={Inbox}
        title="No Nominations Found"
        description="There are no nominations in this sport yet. Check back soon!"
      />
    ),
  },
  voted: {
    label: 'Voted',
    filter: voted,
    empty: (
      <EmptyState
        icon={Vote}
        title="No Votes Yet"
        description="You haven't voted for any nominations yet. Your vote helps talent get noticed."
      />
    ),
  },
  'not-voted': {
    label: 'Not Voted',
    filter: notVoted,
    empty: (
      <EmptyState
        icon={CheckCheck}
        title="All Caught Up"
        description="You have voted for every nomination in this sport."
      />
    ),
  },
} as const;

type Tab = keyof typeof tabs;
const isTab = (value: string | null): value is Tab => value !== null && value in tabs;

export default function VotePage() {
  const { sport } = useSport();
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get('tab');
  const tab: Tab = isTab(tabParam) ? tabParam : 'all';
  const filters = { sport, q: '' };
  const query = useNominations(filters);
  const votedCount = useMemo(() => flattenPages(query.data).filter(voted).length, [query.data]);

  return (
    <>
      <PageHeader
        title="Vote"
        description="Cast your vote for the athletes you believe in. One vote per nomination; vote again to take it back."
      />
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams(value === 'all' ? {} : { tab: value }, { replace: true })
        }
      >
        <TabsList aria-label="Filter nominations">
          {(Object.keys(tabs) as Tab[]).map((value) => (
            <TabsTrigger
              key={value}
              value={value}
              className="flex-auto px-2.5 sm:flex-none sm:px-4"
            >
              {tabs[value].label}
              {value === 'voted' && <Badge variant="primary">{votedCount}</Badge>}
            </TabsTrigger>
          ))}
        </TabsList>
        {(Object.keys(tabs) as Tab[]).map((value) => (
          <TabsContent key={value} value={value} className="outline-none">
            <NominationFeed
              query={query}
              listKey={nominationKeys.list(filters)}
              filter={tabs[value].filter}
              empty={tabs[value].empty}
            />
          </TabsContent>
        ))}
      </Tabs>
    </>
  );
}
