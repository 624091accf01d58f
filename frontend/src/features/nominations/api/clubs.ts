import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import { clubKeys } from '@/lib/query-keys';
import { isSport } from '@/stores/sport';

export type ClubSuggestion = components['schemas']['ClubSuggestionOut'];

/**
 * GET /api/clubs?sport=&q=: the sport's clubs as a club is typed (`wanted`: while the field is
 * being typed in; none for blank text).
 */
export function useClubSuggestions(sport: string, q: string, wanted: boolean) {
  const text = q.trim();
  return useQuery({
    queryKey: clubKeys.suggestions(sport, text),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/clubs', {
          params: { query: { sport: isSport(sport) ? sport : undefined, q: text } },
          signal,
        }),
      ),
    enabled: wanted && text.length > 0 && isSport(sport),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** GET /api/players/{id}/club: the club the player's page links to (null without one). */
export function usePlayerClub(playerId: number) {
  return useQuery({
    queryKey: clubKeys.ofPlayer(playerId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/players/{player_id}/club', {
          params: { path: { player_id: playerId } },
          signal,
        }),
      ),
  });
}
