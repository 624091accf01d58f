import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import { queryRoots } from '@/lib/query-keys';
import { toast } from '@/stores/toast';

export type Endorsement = components['schemas']['EndorsementOut'];
export type EndorsementList = components['schemas']['EndorsementListOut'];
export type EndorsementInput = components['schemas']['EndorsementIn'];

export const endorsementKeys = {
  all: () => [...queryRoots.coaches, 'endorsements'] as const,
  player: (playerId: number) => [...endorsementKeys.all(), playerId] as const,
};

/** A player's endorsements as the reader may see them (the rating only for some readers). */
export function useEndorsements(playerId: number) {
  return useQuery({
    queryKey: endorsementKeys.player(playerId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/players/{player_id}/endorsements', {
          params: { path: { player_id: playerId } },
          signal,
        }),
      ),
  });
}

function failed(what: string) {
  return (error: unknown) =>
    toast({
      variant: 'destructive',
      title: 'Error',
      description: errorMessage(error, `Failed to ${what}. Please try again.`),
    });
}

/** Write the coach's endorsement of the player (the first, or an edit of it). */
export function useEndorse(playerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EndorsementInput) =>
      unwrap(
        api.POST('/api/players/{player_id}/endorsements', {
          params: { path: { player_id: playerId } },
          body,
        }),
      ),
    onSuccess: () => toast({ title: 'Endorsement saved' }),
    onSettled: () =>
      void queryClient.invalidateQueries({ queryKey: endorsementKeys.player(playerId) }),
    onError: failed('save the endorsement'),
  });
}

/** Delete one's endorsement, or (the claimant) hide one from the page or show it again. */
export function useEndorsementAction(playerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'delete' | 'hide' | 'show' }) => {
      const params = { path: { player_id: playerId, endorsement_id: id } };
      if (action === 'delete')
        return unwrap(
          api.DELETE('/api/players/{player_id}/endorsements/{endorsement_id}', { params }),
        );
      if (action === 'hide')
        return unwrap(
          api.POST('/api/players/{player_id}/endorsements/{endorsement_id}/hide', { params }),
        );
      return unwrap(
        api.POST('/api/players/{player_id}/endorsements/{endorsement_id}/show', { params }),
      );
    },
    onSettled: () =>
      void queryClient.invalidateQueries({ queryKey: endorsementKeys.player(playerId) }),
    onError: failed('change the endorsement'),
  });
}
