/** What a missing club or nationality reads. */
export const NOT_SPECIFIED = 'Not specified';

type RankTone = { badge: string; bar: string };

/** Gold, silver and bronze for the podium, then red. */
const PODIUM: RankTone[] = [
  { badge: 'bg-amber-400 text-amber-950 ring-amber-300', bar: 'bg-amber-400' },
  { badge: 'bg-slate-300 text-slate-800 ring-slate-200', bar: 'bg-slate-400' },
  { badge: 'bg-amber-700 text-white ring-amber-600', bar: 'bg-amber-700' },
];
const BELOW_PODIUM: RankTone = {
  badge: 'bg-destructive-soft text-destructive ring-destructive/20',
  bar: 'bg-destructive',
};

/** The colours of a leaderboard rank (1-based). */
export function rankTone(rank: number): RankTone {
  return PODIUM[rank - 1] ?? BELOW_PODIUM;
}
