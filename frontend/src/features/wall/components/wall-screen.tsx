import { WifiOff } from 'lucide-react';

import { ConnectionIndicator } from '@/components/connection-indicator';
import { Spinner } from '@/components/ui/spinner';
import { WatchingCount } from '@/lib/live/watching-count';
import { cn } from '@/lib/utils';
import { useConnectionStore } from '@/stores/connection';
import { sportOption, type Sport } from '@/stores/sport';

import { useWallActivity, useWallPlayers, useWallScouts } from '../api/get-wall-data';
import { byNominations, byVotes, rank, topOf } from '../api/ranking';
import { useHeld } from '../hooks/use-held';
import { useWallLive } from '../hooks/use-wall-live';

import { AnimatedNumber } from './animated-number';
import { Board, type BoardRow } from './board';
import { Clock } from './clock';
import { Ticker } from './ticker';

/** A socket down this long is shown as such: shorter gaps are a reconnect in passing. */
const OFFLINE_AFTER_MS = 2000;

/**
 * The full-screen live leaderboard of one sport: top players by votes, top scouts by
 * nominations, the latest activity and the time, sized to the screen (never scrolling). While
 * the live connection is down the numbers dim under a "Reconnecting…" banner rather than pass
 * for current.
 */
export function WallScreen({ sport }: { sport: Sport }) {
  useWallLive(sport);
  const { label, icon: SportIcon } = sportOption(sport);
  const players = useWallPlayers(sport);
  const scouts = useWallScouts(sport);
  const activity = useWallActivity(sport);
  const status = useConnectionStore((state) => state.status);
  const offline = useHeld(status !== 'open', OFFLINE_AFTER_MS);
  const loaded = Boolean(players.data && scouts.data);

  const topPlayers = topOf(players.data ?? [], byVotes);
  const leaderVotes = Math.max(1, topPlayers[0]?.voteCount ?? 0);
  const playerRows: BoardRow[] = rank(topPlayers, (player) => player.voteCount).map(
    ({ item, rank: place }) => ({
      key: `player-${item.id}`,
      rank: place,
      title: item.player.name,
      subtitle: [item.player.position, item.player.club].filter(Boolean).join(' · '),
      value: <AnimatedNumber value={item.voteCount} />,
      share: item.voteCount / leaderVotes,
    }),
  );

  const topScouts = topOf(scouts.data ?? [], byNominations);
  const leaderNominations = Math.max(1, topScouts[0]?.nominationCount ?? 0);
  const scoutRows: BoardRow[] = rank(topScouts, (scout) => scout.nominationCount).map(
    ({ item, rank: place }) => ({
      key: `scout-${item.id}`,
      rank: place,
      title: item.name,
      subtitle: `@${item.username}`,
      value: <AnimatedNumber value={item.nominationCount} />,
      share: item.nominationCount / leaderNominations,
    }),
  );

  return (
    <div className="fixed inset-0 flex flex-col gap-[2vh] overflow-hidden bg-slate-950 px-[2.5vw] py-[2.5vh] text-white">
      <header className="flex shrink-0 items-center justify-between gap-[2vw]">
        <h1 className="flex min-w-0 items-center gap-[1vw] text-[clamp(1.5rem,5.5vh,5rem)] leading-none font-black tracking-tight">
          <SportIcon className="size-[1.1em] shrink-0 text-secondary" aria-hidden="true" />
          <span className="truncate">{label} Leaderboard</span>
        </h1>
        <div className="flex shrink-0 items-center gap-[2vw]">
          <WatchingCount
            scope="sport"
            id={sport}
            className="text-[clamp(0.8rem,2vh,1.75rem)] text-slate-300"
          />
          <ConnectionIndicator className="gap-[0.5vw] text-[clamp(0.8rem,2vh,1.75rem)] text-slate-300 [&>span:first-child]:size-[1.6vh]" />
          <Clock />
        </div>
      </header>

      {offline && (
        <div
          role="alert"
          className="absolute top-1/2 left-1/2 z-10 flex -translate-x-1/2 -translate-y-1/2 items-center gap-[1vw] rounded-full bg-amber-400 px-[3vw] py-[2vh] text-[clamp(1.25rem,5vh,4.5rem)] font-black text-amber-950 shadow-2xl"
        >
          <WifiOff className="size-[1.1em]" aria-hidden="true" />
          {loaded ? 'Reconnecting…' : 'Connecting…'}
          <Spinner className="size-[1em]" />
        </div>
      )}

      <main
        aria-busy={!loaded || offline}
        className={cn(
          'grid min-h-0 flex-1 grid-cols-[minmax(0,1.7fr)_minmax(0,1fr)] gap-[2.5vw] transition-[opacity,filter] duration-500',
          offline && 'opacity-35 grayscale',
        )}
      >
        {loaded ? (
          <>
            <Board
              title="Top Players"
              valueLabel="Votes"
              rows={playerRows}
              empty={`No ${label.toLowerCase()} nominations yet`}
              barClassName="bg-secondary"
            />
            <Board
              title="Top Scouts"
              valueLabel="Nominations"
              rows={scoutRows}
              empty="No scouts yet"
              barClassName="bg-purple"
            />
          </>
        ) : (
          <div className="col-span-2 flex items-center justify-center text-secondary">
            <Spinner className="size-[8vh]" label="Loading the leaderboard" />
          </div>
        )}
      </main>

      <Ticker activities={activity.data ?? []} />
    </div>
  );
}
