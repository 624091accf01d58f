import type { components } from '@/lib/api/schema';

type Nomination = components['schemas']['NominationOut'];

/** A nomination read shape for tests; `id` also numbers its player and the player's name. */
export function makeNomination(
  id: number,
  overrides: Partial<Omit<Nomination, 'player'>> & { player?: Partial<Nomination['player']> } = {},
): Nomination {
  const { player, ...rest } = overrides;
  return {
    id,
    createdAt: `2025-01-${String((id % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    status: 'pending',
    voteCount: 0,
    commentCount: 0,
    version: 0,
    hasVoted: false,
    nominatedBy: { id: 90, name: 'Nora Nominator', username: 'nora' },
    ...rest,
    player: {
      id: 1000 + id,
      name: `Player ${id}`,
      age: 17,
      graduationYear: null,
      position: 'Forward',
      nationality: 'USA',
      club: 'City FC',
      sport: 'football',
      skills: '',
      videoLink: '',
      verified: false,
      ...player,
    },
  };
}
