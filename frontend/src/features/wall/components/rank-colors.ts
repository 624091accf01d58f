/** Gold, silver and bronze for the podium, then red, as on the Leaderboard page. */
const PODIUM = [
  'bg-amber-400 text-amber-950',
  'bg-slate-300 text-slate-900',
  'bg-orange-700 text-white',
];

export function rankColor(rank: number): string {
  return PODIUM[rank - 1] ?? 'bg-red-600 text-white';
}
