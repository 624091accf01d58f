import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, ApiError, errorMessage, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import { toast } from '@/stores/toast';

export type ClaimInput = components['schemas']['ClaimIn'];
export type PlayerControls = components['schemas']['ControlsOut'];
export type ControlsInput = components['schemas']['ControlsIn'];
export type ManagedPlayer = components['schemas']['ManagedPlayerOut'];

export const claimKeys = {
  all: ['claims'] as const,
  controls: (playerId: number) => [...claimKeys.all, 'controls', playerId] as const,
  managed: () => [...claimKeys.all, 'managed'] as const,
};

/** POST /api/players/{id}/claims: pending until an admin decides it. */
export function useCreateClaim(playerId: number) {
  return useMutation({
    mutationFn: (body: ClaimInput) =>
      unwrap(
        api.POST('/api/players/{player_id}/claims', {
          params: { path: { player_id: playerId } },
          body,
        }),
      ),
    onSuccess: () =>
      toast({
        title: 'Claim sent',
        description: 'Our moderators will check it and tell you their decision.',
      }),
  });
}

/**
 * The controls of a claimed player, read by its claimant only: anyone else gets 403, which
 * says the viewer does not manage the page (no retry).
 */
export function usePlayerControls(playerId: number, enabled: boolean) {
  return useQuery({
    queryKey: claimKeys.controls(playerId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/players/{player_id}/controls', {
          params: { path: { player_id: playerId } },
          signal,
        }),
      ),
    enabled,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useUpdateControls(playerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ControlsInput) =>
      unwrap(
        api.PUT('/api/players/{player_id}/controls', {
          params: { path: { player_id: playerId } },
          body,
        }),
      ),
    onSuccess: (controls) => queryClient.setQueryData(claimKeys.controls(playerId), controls),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to save the change. Please try again.'),
      }),
  });
}

/** Remove the page at once, or bring it back (within 30 days). */
export function useRemoveProfile(playerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: 'remove' | 'restore') =>
      action === 'remove'
        ? unwrap(
            api.POST('/api/players/{player_id}/controls/remove', {
              params: { path: { player_id: playerId } },
            }),
          )
        : unwrap(
            api.POST('/api/players/{player_id}/controls/restore', {
              params: { path: { player_id: playerId } },
            }),
          ),
    onSuccess: (controls, action) => {
      queryClient.setQueryData(claimKeys.controls(playerId), controls);
      void queryClient.invalidateQueries();
      toast(
        action === 'remove'
          ? {
              title: 'Profile removed',
              description: 'Bring it back within 30 days under Settings → Profiles you manage.',
            }
          : { title: 'Profile back', description: 'It is on ScoutVote again.' },
      );
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to change the profile. Please try again.'),
      }),
  });
}

/** Everything held about the player, saved as a JSON file. */
export async function downloadPlayerExport(playerId: number) {
  const data = await unwrap(
    api.GET('/api/players/{player_id}/export', { params: { path: { player_id: playerId } } }),
  );
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `scoutvote-player-${playerId}.json`;
  link.click();
  URL.revokeObjectURL(url);
}

/** The profiles the member manages, and those a guardian invited them to take. */
export function useManagedPlayers() {
  return useQuery({
    queryKey: claimKeys.managed(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/me/managed-players', { signal })),
  });
}

/** The guardian names the athlete's own account (from 16) to hand them the controls. */
export function useNameAthlete(playerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) =>
      unwrap(
        api.POST('/api/players/{player_id}/controls/athlete', {
          params: { path: { player_id: playerId } },
          body: { username },
        }),
      ),
    onSuccess: (controls) => {
      queryClient.setQueryData(claimKeys.controls(playerId), controls);
      toast({
        title: 'Invitation sent',
        description: 'The athlete takes the controls when they accept them.',
      });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to send the invitation. Please try again.'),
      }),
  });
}

/** The athlete takes the controls their guardian handed them. */
export function useAcceptControls(playerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/players/{player_id}/controls/accept', {
          params: { path: { player_id: playerId } },
        }),
      ),
    onSuccess: (controls) => {
      queryClient.setQueryData(claimKeys.controls(playerId), controls);
      void queryClient.invalidateQueries({ queryKey: claimKeys.managed() });
      toast({ title: 'Controls accepted', description: 'You manage your profile now.' });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to accept the controls. Please try again.'),
      }),
  });
}
