import { describe, expect, it } from 'vitest';

import { registerInputSchema } from '@/features/auth/api/register';
import {
  nominationInputSchema,
  playerUpdateInputSchema,
} from '@/features/nominations/api/player-schema';
import { checkSearch } from '@/features/nominations/api/search';
import { profileInputSchema } from '@/features/profile/api/update-profile';
import { takedownFormSchema } from '@/features/safety/api/takedown';

const PASTED = 'x'.repeat(10_000);

/** The first message of each field that fails, as the form shows them. */
function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]);
    found[field] ??= issue.message;
  }
  return found;
}

const nomination = {
  name: 'Zoë Núñez',
  age: '16',
  graduationYear: '',
  position: 'Striker',
  nationality: 'Spain',
  club: 'FC Valencia Youth',
  sport: 'football',
  skills: 'Pace',
  videoLink: '',
};

// The server's messages, word for word (tests/api/test_field_limits.py).
const PLAYER_LIMITS = {
  name: 'Name must be at most 200 characters',
  position: 'Position must be at most 100 characters',
  nationality: 'Nationality must be at most 100 characters',
  club: 'Club must be at most 200 characters',
  skills: 'Skills must be at most 5000 characters',
  videoLink: 'Video link must be at most 500 characters',
};

describe('field limits', () => {
  it('names each pasted player field and its limit, as the server does', () => {
    const pasted = {
      ...nomination,
      ...Object.fromEntries(Object.keys(PLAYER_LIMITS).map((f) => [f, PASTED])),
    };
    expect(messages(nominationInputSchema.safeParse(pasted))).toEqual(PLAYER_LIMITS);
    expect(messages(playerUpdateInputSchema.safeParse(pasted))).toEqual(PLAYER_LIMITS);
  });

  it('takes a field at its limit', () => {
    expect(
      nominationInputSchema.safeParse({ ...nomination, skills: 'x'.repeat(5000) }).success,
    ).toBe(true);
  });

  it('names the search limit and searches the first 200 characters', () => {
    expect(checkSearch(' zoë ')).toEqual({ q: 'zoë', error: null });
    const { q, error } = checkSearch(PASTED);
    expect(error).toBe('Search must be at most 200 characters');
    expect(q).toHaveLength(200);
  });

  it('names the limits of the sign-up, profile and takedown forms', () => {
    expect(
      messages(
        registerInputSchema.safeParse({
          username: PASTED,
          name: PASTED,
          email: 'a@example.com',
          password: PASTED,
          favoriteSport: 'football',
          birthYear: '1990',
        }),
      ),
    ).toEqual({
      username: 'Username must be at most 150 characters',
      name: 'Name must be at most 150 characters',
      password: 'Password must be at most 256 characters',
    });
    expect(
      messages(
        profileInputSchema.safeParse({
          name: PASTED,
          bio: PASTED,
          location: PASTED,
          phoneNumber: PASTED,
          favoriteSport: '',
        }),
      ),
    ).toEqual({
      name: 'Name must be at most 150 characters',
      bio: 'Bio must be at most 1000 characters',
      location: 'Location must be at most 200 characters',
      phoneNumber: 'Phone number must be at most 40 characters',
    });
    expect(
      messages(
        takedownFormSchema.safeParse({
          page: '/nominations/3',
          relationship: 'athlete',
          kind: 'remove',
          contactEmail: 'a@example.com',
          details: PASTED,
        }),
      ),
    ).toEqual({ details: 'Details must be at most 4000 characters' });
  });
});
