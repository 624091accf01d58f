import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { isMutationInFlight } from '@/lib/mutations';
import { followKeys } from '@/lib/query-keys';
import type { components } from '@/lib/api/schema';
import { toast } from '@/stores/toast';

import { refreshAfterVoteOrFollow } from './refresh';

type FollowStatus = components['schemas']['FollowStatusOut'];

/** GET /api/follow/status?playerId: whether the current user follows the player. */
export const playerFollowStatusQueryOptions = (playerId: number) =>
  queryOptions({
    queryKey: followKeys.playerStatus(playerId),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/follow/status', { params: { query: { playerId } }, signal })),
  });

/** The follow status, asked once the player is known; a failure is told in a toast. */
export function usePlayerFollowStatus(playerId: number | undefined) {
  const query = useQuery({
    ...playerFollowStatusQueryOptions(playerId ?? 0),
    enabled: playerId !== undefined,
  });
  const failed = query.isError;
  useEffect(() => {
    if (failed) toast({ variant: 'destructive', description: 'Failed to check follow status' });
  }, [failed]);
  return query;
}

const followPlayerMutationKey = [...followKeys.all, 'player'] as const;

/** Whether a follow or unfollow of the player is on its way. */
export function isFollowPlayerInFlight(queryClient: QueryClient, playerId: number): boolean {
  return isMutationInFlight<FollowVariables>(
    queryClient,
    followPlayerMutationKey,
    (variables) => variables.playerId === playerId,
  );
}

export type FollowVariables = { playerId: number; playerName: string; follow: boolean };

export function followPlayer({ playerId, follow }: FollowVariables): Promise<FollowStatus> {
  return follow
    ? unwrap(
        api.POST('/api/follow/player/{player_id}', { params: { path: { player_id: playerId } } }),
      )
    : unwrap(api.DELETE('/api/follow', { body: { playerId } }));
}

/** Follows or unfollows a player (POST /api/follow/player/{id}, DELETE /api/follow). */
export function useFollowPlayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: followPlayerMutationKey,
    mutationFn: followPlayer,
    onSuccess: (_status, { playerId, playerName, follow }) => {
      queryClient.setQueryData<FollowStatus>(followKeys.playerStatus(playerId), {
        isFollowing: follow,
      });
      toast(
        follow
          ? { title: 'Following', description: `You are now following ${playerName}.` }
          : { title: 'Unfollowed', description: `You have unfollowed ${playerName}.` },
      );
      refreshAfterVoteOrFollow(queryClient);
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'An error occurred while following.'),
      });
    },
  });
}
