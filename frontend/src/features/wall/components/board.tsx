import { useRef, type ReactNode } from 'react';

import { RankMovement } from '@/components/rank-movement';
import { cn } from '@/lib/utils';

import { WALL_SIZE } from '../api/ranking';
import { useFlip } from '../hooks/use-flip';

import { rankColor } from './rank-colors';

export type BoardRow = {
  key: string;
  rank: number;
  title: string;
  subtitle: string;
  value: ReactNode;
  /** 0..1: how full the row's bar is, relative to the leader. */
  share: number;
  /** Places moved since the previous board (null: new on it); none for the scouts. */
  movement?: number | null;
};

/** Light colours that read on the wall's dark rows. */
const MOVEMENT_TONE = { up: 'text-emerald-400', down: 'text-red-400', new: 'text-sky-300' };

/**
 * A wall leaderboard: ten equal rows filling the height it is given, each gliding to its new
 * place when the order changes.
 */
export function Board({
  title,
  rows,
  valueLabel,
  empty,
  barClassName,
}: {
  title: string;
  rows: BoardRow[];
  valueLabel: string;
  empty: string;
  barClassName: string;
}) {
  const list = useRef<HTMLOListElement>(null);
  useFlip(list, rows.map((row) => row.key).join(','));

  return (
    <section aria-label={title} className="flex min-h-0 flex-col">
      <h2 className="mb-[1.2vh] flex items-baseline justify-between text-[clamp(1rem,3vh,2.5rem)] font-bold tracking-wide text-slate-300 uppercase">
        {title}
        <span className="text-[clamp(0.75rem,1.7vh,1.4rem)] font-semibold text-slate-400">
          {valueLabel}
        </span>
      </h2>
      {rows.length === 0 ? (
        <p className="flex flex-1 items-center justify-center rounded-[1vh] border border-dashed border-slate-700 text-[clamp(1rem,3vh,2.5rem)] text-slate-400">
          {empty}
        </p>
      ) : (
        <ol
          ref={list}
          className="relative grid min-h-0 flex-1 gap-[0.8vh]"
          style={{ gridTemplateRows: `repeat(${WALL_SIZE}, minmax(0, 1fr))` }}
        >
          {rows.map((row) => (
            <li
              key={row.key}
              data-flip-key={row.key}
              className="relative flex min-h-0 items-center gap-[1.2vw] overflow-hidden rounded-[1vh] bg-slate-900 px-[1.2vw] will-change-transform max-sm:min-h-12 max-sm:gap-2 max-sm:px-2"
            >
              <span
                aria-hidden="true"
                className={cn(
                  'absolute inset-y-0 left-0 opacity-25 transition-[width] duration-700',
                  barClassName,
                )}
                style={{ width: `${Math.round(row.share * 100)}%` }}
              />
              <span
                className={cn(
                  'relative flex aspect-square h-[72%] shrink-0 items-center justify-center rounded-full text-[clamp(0.9rem,2.8vh,2.4rem)] font-black tabular-nums',
                  rankColor(row.rank),
                )}
                aria-label={`Rank ${row.rank}`}
              >
                {row.rank}
              </span>
              {row.movement !== undefined && (
                <span className="relative flex min-w-[3.2vw] shrink-0 justify-center text-[clamp(0.8rem,2.2vh,2rem)]">
                  <RankMovement movement={row.movement} tone={MOVEMENT_TONE} />
                </span>
              )}
              <span className="relative min-w-0 flex-1 leading-tight">
                <span className="block truncate text-[clamp(1rem,3.1vh,2.75rem)] font-bold">
                  {row.title}
                </span>
                <span className="block truncate text-[clamp(0.7rem,1.7vh,1.5rem)] text-slate-400">
                  {row.subtitle}
                </span>
              </span>
              <span className="relative shrink-0 text-[clamp(1.2rem,4vh,3.5rem)] font-black tabular-nums">
                {row.value}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
