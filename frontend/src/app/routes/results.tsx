import { MonitorPlay } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { PageHeader } from '@/components/ui/page-header';
import { TopScouts } from '@/features/nominations/components/leaderboards';
import { PlayerBoards } from '@/features/nominations/components/player-boards';
import { PlayerOfTheWeek } from '@/features/nominations/components/player-of-the-week';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { WatchingCount } from '@/lib/live/watching-count';
import { parseBoard, type BoardKind } from '@/lib/boards';
import { useSport } from '@/stores/sport';

export default function ResultsPage() {
  const { sport, option } = useSport();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab') === 'scouts' ? 'scouts' : 'players';
  const board = parseBoard(searchParams.get('board')) ?? 'all';
  // The address keeps what is shown (?tab=scouts, ?board=trending|weekly), defaults left out.
  const show = (next: { tab?: string; board?: BoardKind }) => {
    const params: Record<string, string> = {};
    if ((next.tab ?? tab) === 'scouts') params.tab = 'scouts';
    if ((next.board ?? board) !== 'all') params.board = next.board ?? board;
    setSearchParams(params, { replace: true });
  };

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
      <Tabs value={tab} onValueChange={(value) => show({ tab: value })}>
        <TabsList aria-label="Leaderboards">
          <TabsTrigger value="players">Top Players</TabsTrigger>
          <TabsTrigger value="scouts">Top Scouts</TabsTrigger>
        </TabsList>
        <TabsContent value="players" className="outline-none">
          {/* One column: Player of the Week as wide as the board above it. */}
          <div className="max-w-3xl">
            <PlayerBoards
              sport={sport}
              board={board}
              onBoardChange={(next) => show({ board: next })}
            />
            <PlayerOfTheWeek sport={sport} />
          </div>
        </TabsContent>
        <TabsContent value="scouts" className="max-w-3xl outline-none">
          <TopScouts sport={sport} />
        </TabsContent>
      </Tabs>
    </>
  );
}
