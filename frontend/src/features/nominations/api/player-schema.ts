import { z } from 'zod';

import { LIMITS } from '@/lib/api/limits';
import { ApiError } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { SPORT_VALUES } from '@/stores/sport';

const player = LIMITS.NominationIn;

export const AGE_MIN = player.age.minimum;
export const AGE_MAX = player.age.maximum;
export const GRADUATION_YEAR_MIN = player.graduationYear.minimum;
export const GRADUATION_YEAR_MAX = player.graduationYear.maximum;

const GRADUATION_YEAR_RANGE = `Graduation year must be between ${GRADUATION_YEAR_MIN} and ${GRADUATION_YEAR_MAX}`;

/** A blank number field becomes undefined; anything else is read as a number. */
const blankToUndefined = (value: unknown) => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : Number(value);
  return value;
};

/** The server's limits of the player fields (project/scouting/schemas.py). */
export const PLAYER_FIELD_LIMITS = {
  name: player.name.maxLength,
  position: player.position.maxLength,
  nationality: player.nationality.maxLength,
  club: player.club.maxLength,
  skills: player.skills.maxLength,
  videoLink: player.videoLink.maxLength,
} as const;

const requiredText = (min: number, message: string, label: string, limit: number) =>
  z.string().trim().min(min, message).max(limit, tooLong(label, limit));

const optionalText = (label: string, limit: number) =>
  z.string().trim().max(limit, tooLong(label, limit));

/** The fields the nomination form and the player edit form share, with the spec's messages. */
const playerFields = {
  name: requiredText(
    player.name.minLength,
    `Name must be at least ${player.name.minLength} characters`,
    'Name',
    PLAYER_FIELD_LIMITS.name,
  ),
  age: z.preprocess(
    blankToUndefined,
    z
      .number({ error: 'Invalid age' })
      .int('Invalid age')
      .min(AGE_MIN, `Player must be at least ${AGE_MIN} years old`)
      .max(AGE_MAX, 'Invalid age')
      .optional(),
  ),
  graduationYear: z.preprocess(
    blankToUndefined,
    z
      .number({ error: GRADUATION_YEAR_RANGE })
      .int(GRADUATION_YEAR_RANGE)
      .min(GRADUATION_YEAR_MIN, GRADUATION_YEAR_RANGE)
      .max(GRADUATION_YEAR_MAX, GRADUATION_YEAR_RANGE)
      .optional(),
  ),
  position: requiredText(
    player.position.minLength,
    'Position is required',
    'Position',
    PLAYER_FIELD_LIMITS.position,
  ),
  nationality: requiredText(
    player.nationality.minLength,
    'Nationality is required',
    'Nationality',
    PLAYER_FIELD_LIMITS.nationality,
  ),
  club: requiredText(player.club.minLength, 'Club is required', 'Club', PLAYER_FIELD_LIMITS.club),
  // A string on the form (blank until chosen), one of the five sports once valid.
  sport: z.string().pipe(z.enum(SPORT_VALUES, { error: 'Please select a sport' })),
  videoLink: optionalText('Video link', PLAYER_FIELD_LIMITS.videoLink),
};

/** The server's message (AGE_OR_GRADUATION_YEAR_REQUIRED) when both are blank. */
export const AGE_OR_GRADUATION_YEAR_REQUIRED = "Enter the player's age or graduation year";

const isBlank = (value: unknown) => blankToUndefined(value) === undefined;

/** Either the age or the graduation year must be given; the message sits on the age field.
 * `when` lets it show together with the other fields' messages, not only once they pass. */
const ageOrGraduationYear = {
  message: AGE_OR_GRADUATION_YEAR_REQUIRED,
  path: ['age'],
  when: (payload: { value: unknown }) => {
    const value = payload.value as { age?: unknown; graduationYear?: unknown } | undefined;
    return isBlank(value?.age) && isBlank(value?.graduationYear);
  },
};

const hasAgeOrGraduationYear = (value: { age?: number; graduationYear?: number }) =>
  value.age !== undefined || value.graduationYear !== undefined;

export const nominationInputSchema = z
  .object({
    ...playerFields,
    skills: requiredText(
      player.skills.minLength,
      'Skills are required',
      'Skills',
      PLAYER_FIELD_LIMITS.skills,
    ),
  })
  .refine(hasAgeOrGraduationYear, ageOrGraduationYear);

export const playerUpdateInputSchema = z
  .object({
    ...playerFields,
    skills: optionalText('Skills', PLAYER_FIELD_LIMITS.skills),
  })
  .refine(hasAgeOrGraduationYear, ageOrGraduationYear);

export type NominationFormValues = z.input<typeof nominationInputSchema>;
export type NominationInput = z.output<typeof nominationInputSchema>;
export type PlayerUpdateFormValues = z.input<typeof playerUpdateInputSchema>;
export type PlayerUpdateInput = z.output<typeof playerUpdateInputSchema>;

export const PLAYER_FIELDS = [
  'name',
  'age',
  'graduationYear',
  'position',
  'nationality',
  'club',
  'sport',
  'skills',
  'videoLink',
] as const;

export type PlayerField = (typeof PLAYER_FIELDS)[number];

/** The server's per-field messages that belong to a player form field. */
export function serverFieldErrors(error: unknown): [PlayerField, string][] {
  if (!(error instanceof ApiError) || !error.fields) return [];
  return Object.entries(error.fields).filter((entry): entry is [PlayerField, string] =>
    (PLAYER_FIELDS as readonly string[]).includes(entry[0]),
  );
}

/** The existing nomination a 409 duplicate points to, if that is what the error is. */
export function duplicateNominationId(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 'duplicate_nomination') return null;
  const id = error.body?.nominationId;
  return typeof id === 'number' ? id : null;
}
