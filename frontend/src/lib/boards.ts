import type { components } from '@/lib/api/schema';

/** The three player boards: all time, trending, this week. */
export type BoardKind = components['schemas']['BoardQuery']['board'];

export const BOARD_KINDS: readonly BoardKind[] = ['all', 'trending', 'weekly'];

/** A board entry as the REST call returns it: a nomination with its rank, score and movement. */
export type BoardEntry = components['schemas']['BoardEntryOut'];

type BoardText = {
  /** The tab and the wall's board name. */
  label: string;
  /** What the score counts, after the number ("3 votes this week"). */
  unit: (score: number) => string;
  /** The wall's column heading over the scores. */
  column: string;
};

export const BOARD_TEXT: Record<BoardKind, BoardText> = {
  all: {
    label: 'All time',
    unit: (score) => (score === 1 ? 'vote' : 'votes'),
    column: 'Votes',
  },
  trending: {
    label: 'Trending',
    unit: (score) => (score === 1 ? 'vote in 24 h' : 'votes in 24 h'),
    column: 'Votes in 24 h',
  },
  weekly: {
    label: 'This week',
    unit: (score) => (score === 1 ? 'vote this week' : 'votes this week'),
    column: 'Votes this week',
  },
};

export function isBoardKind(value: unknown): value is BoardKind {
  return BOARD_KINDS.includes(value as BoardKind);
}

/** The board a `?board=` parameter names, or null when it names none. */
export function parseBoard(value: string | null | undefined): BoardKind | null {
  return isBoardKind(value) ? value : null;
}
