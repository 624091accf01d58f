import type { components } from '@/lib/api/schema';

/** The three player boards: all time, trending, this week. */
export type BoardKind = components['schemas']['BoardQuery']['board'];

export const BOARD_KINDS: readonly BoardKind[] = ['all', 'trending', 'weekly'];

/** A board entry as the REST call returns it: a nomination with its rank, score and movement. */
export type BoardEntry = components['schemas']['BoardEntryOut'];

type BoardText = {
  /** The tab and the wall's board name. */
  label: string;
  /** What the score counts, after the number ("3 votes this week"). Equal figures side by side
   * share a rank on every board (1, 2, 2, 4). */
  unit: (score: number) => string;
  /** The wall's column heading over the scores. */
  column: string;
  /** What the board counts, in a sentence under it. */
  counts: string;
};

/** Votes of accounts younger than the server's TRUST_ACCOUNT_AGE_HOURS are left out of the
 * trending and weekly boards (and nominators' points). */
const LEFT_OUT =
  'Votes from brand-new accounts and votes removed by moderators are left out: brand-new accounts’ votes count only in the all-time total.';

export const BOARD_TEXT: Record<BoardKind, BoardText> = {
  all: {
    label: 'All time',
    unit: (score) => (score === 1 ? 'vote' : 'votes'),
    column: 'Votes',
    counts: 'Every vote a player has received. Votes removed by moderators do not count.',
  },
  trending: {
    label: 'Trending',
    unit: (score) => (score === 1 ? 'vote in 24 h' : 'votes in 24 h'),
    column: 'Votes in 24 h',
    counts: `The figure is the votes of the last 24 hours that count here, and recent votes weigh most in the order (a vote counts half as much a day later). ${LEFT_OUT}`,
  },
  weekly: {
    label: 'This week',
    unit: (score) => (score === 1 ? 'vote this week' : 'votes this week'),
    column: 'Votes this week',
    counts: `Votes cast this week, since Monday. ${LEFT_OUT}`,
  },
};

export function isBoardKind(value: unknown): value is BoardKind {
  return BOARD_KINDS.includes(value as BoardKind);
}

/** The board a `?board=` parameter names, or null when it names none. */
export function parseBoard(value: string | null | undefined): BoardKind | null {
  return isBoardKind(value) ? value : null;
}
