import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { applyPlayer } from './admin-cache';

export function setPlayerVerified({ playerId, verified }: { playerId: number; verified: boolean }) {
  return unwrap(
    api.PUT('/api/admin/players/{player_id}/verified', {
      params: { path: { player_id: playerId } },
      body: { verified },
    }),
  );
}

/** Verifies a player or removes the verification; every admin list shows the new flag. */
export function useSetPlayerVerified() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPlayerVerified,
    onSuccess: (player) => applyPlayer(queryClient, player),
    onError: (error) =>
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'Failed to update verification status'),
      }),
  });
}
