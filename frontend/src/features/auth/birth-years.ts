/** The oldest year the question offers (the server accepts none before it). */
const OLDEST_YEAR = 1900;

/** Every year from this one back to 1900, newest first. */
export function birthYears(now: Date = new Date()): number[] {
  const years: number[] = [];
  for (let year = now.getFullYear(); year >= OLDEST_YEAR; year -= 1) years.push(year);
  return years;
}
