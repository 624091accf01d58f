/** The baseline of the derived age: a player is taken to be this old in their graduation year. */
export const GRADUATION_AGE = 18;

export type AgeInput = {
  age?: number | null;
  graduationYear?: number | null;
};

export type AgeDisplay = {
  /** "{n} YRS", or null when neither an age nor a graduation year is known. */
  age: string | null;
  /** "{year} GRAD", only when a graduation year is known. */
  graduation: string | null;
};

/**
 * The spec's age rule: with a graduation year the age is 18 minus the years left until
 * graduation (never below 0); without one, the recorded age.
 */
export function displayAge({ age, graduationYear }: AgeInput, now: Date = new Date()): AgeDisplay {
  if (graduationYear != null) {
    const derived = Math.max(0, GRADUATION_AGE - (graduationYear - now.getFullYear()));
    return { age: `${derived} YRS`, graduation: `${graduationYear} GRAD` };
  }
  return { age: age != null ? `${age} YRS` : null, graduation: null };
}

/** Up to two initials: the first letters of the first and last words of a name. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0];
  const last = words.length > 1 ? words[words.length - 1] : '';
  return (Array.from(first)[0] + (last ? Array.from(last)[0] : '')).toUpperCase();
}

export type StatusTone = 'green' | 'yellow' | 'red';

/** Nomination status colours: approved green, pending yellow, anything else red. */
export function statusTone(status: string): StatusTone {
  if (status === 'approved') return 'green';
  if (status === 'pending') return 'yellow';
  return 'red';
}

/** A count with its noun, singular for exactly one: "1 point", "0 points", "12 points". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * A span of hours in the unit an admin reads at a glance, whole units only: minutes under an
 * hour, hours under two days ("36 hours"), days under two years ("90 days"), then years.
 */
export function humanHours(hours: number): string {
  if (hours < 1) return countOf(Math.max(0, Math.round(hours * 60)), 'minute');
  if (hours < 48) return countOf(Math.round(hours), 'hour');
  const days = Math.round(hours / 24);
  if (days < 730) return countOf(days, 'day');
  return countOf(Math.floor(days / 365), 'year');
}
