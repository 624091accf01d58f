/**
 * The message the server answers for a field longer than its limit ("Club must be at most 200
 * characters"): the forms' schemas show the same one before anything is sent.
 */
export function tooLong(label: string, limit: number): string {
  return `${label} must be at most ${limit} characters`;
}
