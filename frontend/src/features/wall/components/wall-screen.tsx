import { WifiOff } from 'lucide-react';

import { ConnectionIndicator } from '@/components/connection-indicator';
import { Spinner } from '@/components/ui/spinner';
import { BOARD_TEXT, type BoardKind } from '@/lib/boards';
import { WatchingCount } from '@/lib/live/watching-count';
import { cn } from '@/lib/utils';
import { useConnectionStore } from '@/stores/connection';
import { sportOption, type Sport } from '@/stores/sport';

import { useWallActivity, useWallBoards, useWallScouts } from '../api/get-wall-data';
import { byNominations, byVotes, rank, topOf, WALL_SIZE } from '../api/ranking';
import type { WallEntry } from '../api/types';
import { useHeld } from '../hooks/use-held';
import { useRotation } from '../hooks/use-rotation';

import { AnimatedNumber } from './animated-number';
import { Board, type BoardRow } from './board';
import { Clock } from './clock';
import { Ticker } from './ticker';
import { WeeklyReset } from './weekly-reset';

/** A socket down this long is shown as such: shorter gaps are a reconnect in passing. */
const OFFLINE_AFTER_MS = 2000;

/**
 * A board's rows, every board numbered alike: rows side by side with the same figure share a
 * rank. All time is ordered here by vote count, as each live vote moves it; the other boards keep
 * the server's order and scores, renewed by their events.
 */
function playerRows(board: BoardKind, entries: WallEntry[]): BoardRow[] {
  const placed =
    board === 'all'
      ? rank(topOf(entries, byVotes), (entry) => entry.voteCount).map(({ item, rank: place }) => ({
          entry: item,
          place,
          score: item.voteCount,
        }))
      : rank(entries.slice(0, WALL_SIZE), (entry) => entry.score ?? 0).map(
          ({ item, rank: place }) => ({ entry: item, place, score: item.score ?? 0 }),
        );
  const leader = Math.max(1, placed[0]?.score ?? 0);
  return placed.map(({ entry, place, score }) => ({
    key: `player-${entry.id}`,
    rank: place,
    title: entry.player.name,
    subtitle: [entry.player.position, entry.player.club].filter(Boolean).join(' · '),
    value: <AnimatedNumber value={score} />,
    share: score / leader,
    movement: entry.movement === undefined ? 0 : entry.movement,
  }));
}

/**
 * The full-screen live leaderboard of one sport: top players on each board in turn (all time,
 * trending, this week; or one fixed board), top scouts by nominations, the latest activity, the
 * time and the countdown to the weekly reset, sized to the screen (never scrolling). On a
 * phone's narrow screen the boards stack, one under the other, and the page scrolls. While the
 * live connection is down the numbers dim under a "Reconnecting…" banner rather than pass for
 * current.
 */
export function WallScreen({
  sport,
  boards,
  rotateSeconds,
}: {
  sport: Sport;
  /** The boards shown in turn (one: fixed). */
  boards: readonly BoardKind[];
  rotateSeconds: number;
}) {
  const { label, icon: SportIcon } = sportOption(sport);
  const boardReads = useWallBoards(sport, boards);
  const shownIndex = useRotation(boards.length, rotateSeconds);
  const board = boards[shownIndex];
  const players = boardReads[shownIndex];
  const scouts = useWallScouts(sport);
  const activity = useWallActivity(sport);
  const status = useConnectionStore((state) => state.status);
  const offline = useHeld(status !== 'open', OFFLINE_AFTER_MS);
  const loaded = Boolean(players.data && scouts.data);
  const rows = playerRows(board, players.data ?? []);

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
    <div className="fixed inset-0 flex flex-col gap-[2vh] overflow-hidden bg-slate-950 px-[2.5vw] py-[2.5vh] text-white max-sm:relative max-sm:min-h-dvh max-sm:overflow-visible max-sm:px-3">
      <header className="flex shrink-0 flex-col gap-[2vh]">
        <div className="flex flex-wrap items-center justify-between gap-[2vw]">
          <h1 className="flex min-w-0 items-center gap-[1vw] text-[clamp(1.25rem,min(5.5vh,6.5vw),5rem)] leading-none font-black tracking-tight">
            <SportIcon className="size-[1.1em] shrink-0 text-secondary" aria-hidden="true" />
            <span className="truncate">{label} Leaderboard</span>
          </h1>
          <div className="flex min-w-0 flex-wrap items-center justify-end gap-x-[2vw] gap-y-1 max-sm:w-full max-sm:justify-between">
            <WatchingCount
              scope="sport"
              id={sport}
              className="text-[clamp(0.8rem,2vh,1.75rem)] text-slate-300"
            />
            <ConnectionIndicator className="gap-[0.5vw] text-[clamp(0.8rem,2vh,1.75rem)] text-slate-300 [&>span:first-child]:size-[1.6vh]" />
            <Clock />
          </div>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-x-[2vw] gap-y-2 text-[clamp(0.8rem,2.2vh,1.9rem)] text-slate-300">
          <ol aria-label="Boards" className="flex gap-[0.8vw]">
            {boards.map((kind) => (
              <li
                key={kind}
                aria-current={kind === board ? 'true' : undefined}
                className={cn(
                  'rounded-full px-[1.1vw] py-[0.5vh] font-bold transition-colors duration-500',
                  kind === board ? 'bg-secondary text-white' : 'bg-slate-900 text-slate-300',
                )}
              >
                {BOARD_TEXT[kind].label}
              </li>
            ))}
          </ol>
          <WeeklyReset sport={sport} className="shrink-0" />
        </div>
      </header>

      {offline && (
        <div
          role="alert"
          className="absolute top-1/2 left-1/2 z-10 flex -translate-x-1/2 -translate-y-1/2 items-center gap-[1vw] rounded-full bg-amber-400 px-[3vw] py-[2vh] text-[clamp(1.25rem,5vh,4.5rem)] font-black text-amber-950 shadow-2xl max-sm:fixed"
        >
          <WifiOff className="size-[1.1em]" aria-hidden="true" />
          {loaded ? 'Reconnecting…' : 'Connecting…'}
          <Spinner className="size-[1em]" />
        </div>
      )}

      <main
        aria-busy={!loaded || offline}
        className={cn(
          'grid min-h-0 flex-1 grid-cols-1 gap-[2.5vw] transition-[opacity,filter] duration-500 max-sm:flex-none max-sm:gap-6 sm:grid-cols-[minmax(0,1.7fr)_minmax(0,1fr)]',
          offline && 'opacity-35 grayscale',
        )}
      >
        {loaded ? (
          <>
            <Board
              title="Top Players"
              valueLabel={BOARD_TEXT[board].column}
              rows={rows}
              empty={
                board === 'all'
                  ? `No ${label.toLowerCase()} nominations yet`
                  : board === 'trending'
                    ? 'Nothing trending yet'
                    : 'No votes this week yet'
              }
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
          <div className="col-span-full flex items-center justify-center text-secondary">
            <Spinner className="size-[8vh]" label="Loading the leaderboard" />
          </div>
        )}
      </main>

      <Ticker activities={activity.data ?? []} />
    </div>
  );
}
