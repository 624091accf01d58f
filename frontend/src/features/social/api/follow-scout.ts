import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { isMutationInFlight } from '@/lib/mutations';
import { toast } from '@/stores/toast';

import { feedKeys, followKeys, scoutKeys } from './keys';
import type { FollowStatus } from './types';

export const followStatusQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: followKeys.userStatus(userId),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/follow/status', { params: { query: { userId } }, signal })),
  });

export function useFollowStatus(userId: number) {
  return useQuery(followStatusQueryOptions(userId));
}

const followScoutMutationKey = [...followKeys.all, 'scout'] as const;

/** Whether a follow or unfollow of the scout is on its way. */
export function isFollowScoutInFlight(queryClient: QueryClient, userId: number): boolean {
  return isMutationInFlight<FollowScoutInput>(
    queryClient,
    followScoutMutationKey,
    (variables) => variables.userId === userId,
  );
}

export type FollowScoutInput = {
  userId: number;
  /** Shown in the toasts. */
  name: string;
  /** Whether the caller follows the scout now: true unfollows, false follows. */
  isFollowing: boolean;
};

export function followScout({ userId, isFollowing }: FollowScoutInput): Promise<FollowStatus> {
  return isFollowing
    ? unwrap(api.DELETE('/api/follow', { body: { userId } }))
    : unwrap(api.POST('/api/follow/user/{user_id}', { params: { path: { user_id: userId } } }));
}

/** Follows or unfollows a scout, then refreshes what a follow changes. */
export function useFollowScout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: followScoutMutationKey,
    mutationFn: followScout,
    onSuccess: (status, { userId, name }) => {
      queryClient.setQueryData(followKeys.userStatus(userId), status);
      toast(
        status.isFollowing
          ? { title: 'Following', description: `You are now following ${name}.` }
          : { title: 'Unfollowed', description: `You have unfollowed ${name}.` },
      );
      void queryClient.invalidateQueries({ queryKey: followKeys.followingLists() });
      void queryClient.invalidateQueries({ queryKey: feedKeys.all });
      void queryClient.invalidateQueries({ queryKey: scoutKeys.detail(userId) });
      // Suggestions leave out the scouts one follows.
      void queryClient.invalidateQueries({ queryKey: scoutKeys.suggested() });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'An error occurred while following.'),
      });
    },
  });
}
