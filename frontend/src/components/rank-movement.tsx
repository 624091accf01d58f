import { ArrowDown, ArrowUp, Sparkles } from 'lucide-react';

import { cn } from '@/lib/utils';

const places = (count: number) => (count === 1 ? '1 place' : `${count} places`);

/** What a movement tells a screen reader, or null when there is nothing to tell. */
function movementText(movement: number | null | undefined): string | null {
  if (movement === null) return 'New on the board';
  if (!movement) return null;
  return movement > 0 ? `Up ${places(movement)}` : `Down ${places(-movement)}`;
}

export type MovementTone = Record<'up' | 'down' | 'new', string>;

const tones: MovementTone = {
  up: 'text-success',
  down: 'text-destructive',
  new: 'text-primary',
};

/**
 * How far an entry moved since the previous board: an arrow up or down with the places, or
 * "new" for an entry that was not on it. Nothing for an entry that kept its place. `tone`
 * overrides the colours (the wall's dark screen).
 */
export function RankMovement({
  movement,
  className,
  tone = tones,
}: {
  movement: number | null | undefined;
  className?: string;
  tone?: MovementTone;
}) {
  const text = movementText(movement);
  if (text === null) return null;
  const kind = movement == null ? 'new' : movement > 0 ? 'up' : 'down';
  const Icon = kind === 'new' ? Sparkles : kind === 'up' ? ArrowUp : ArrowDown;
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center gap-0.5 font-bold tabular-nums',
        tone[kind],
        className,
      )}
      title={text}
    >
      <Icon className="size-[1em]" aria-hidden="true" />
      <span aria-hidden="true">{movement == null ? 'new' : Math.abs(movement)}</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}
