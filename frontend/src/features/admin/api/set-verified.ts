import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { applyPlayer } from './admin-cache';
import type { Player } from './types';

export function setPlayerVerified({ playerId, verified }: { playerId: number; verified: boolean }) {
  return api.put<Player>(`/api/admin/players/${playerId}/verified`, { verified });
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
