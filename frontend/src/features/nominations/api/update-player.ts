import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { setPlayer } from './nomination-cache';
import type { PlayerUpdateInput } from './player-schema';
import { refreshNominations } from './refresh';

/**
 * PUT /api/players/{id}. Skills and the video link are always sent, so clearing them clears them;
 * a blank age or graduation year is left out, which clears it.
 */
export function updatePlayer({ id, ...input }: PlayerUpdateInput & { id: number }) {
  return unwrap(
    api.PUT('/api/players/{player_id}', { params: { path: { player_id: id } }, body: input }),
  );
}

/** Edits a player; every cached nomination of it shows the change at once. */
export function useUpdatePlayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePlayer,
    onSuccess: (player) => {
      setPlayer(queryClient, player);
      refreshNominations(queryClient);
    },
  });
}
