import { MonitorPlay } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { PageHeader } from '@/components/ui/page-header';
import { TopPlayers, TopScouts } from '@/features/nominations/components/leaderboards';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { WatchingCount } from '@/lib/live/watching-count';
import { useSport } from '@/stores/sport';

export default function ResultsPage() {
  const { sport, option } = useSport();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab') === 'scouts' ? 'scouts' : 'players';

  return (
    <>
      <PageHeader
        title="Leaderboard"
        description={`The top ${option.label.toLowerCase()} players by community votes and the scouts who found them.`}
        actions={
          <>
            <WatchingCount scope="sport" id={sport} />
            <Link to="/wall" target="_blank" className={buttonClasses({ variant: 'outline' })}>
              <MonitorPlay aria-hidden="true" />
              Open Wall Display
            </Link>
          </>
        }
      />
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams(value === 'scouts' ? { tab: value } : {}, { replace: true })
        }
      >
        <TabsList aria-label="Leaderboards">
          <TabsTrigger value="players">Top Players</TabsTrigger>
          <TabsTrigger value="scouts">Top Scouts</TabsTrigger>
        </TabsList>
        <TabsContent value="players" className="max-w-3xl outline-none">
          <TopPlayers sport={sport} />
        </TabsContent>
        <TabsContent value="scouts" className="max-w-3xl outline-none">
          <TopScouts sport={sport} />
        </TabsContent>
      </Tabs>
    </>
  );
}
