import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { isMutationInFlight } from '@/lib/mutations';
import { clubKeys, followKeys } from '@/lib/query-keys';
import { toast } from '@/stores/toast';

import type { Club, ClubRef, FollowStatus } from './types';

/** GET /api/clubs/{id}: the club's page as the reader sees it (the public's view signed out). */
export const clubQueryOptions = (clubId: number) =>
  queryOptions({
    queryKey: clubKeys.detail(clubId),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/clubs/{club_id}', { params: { path: { club_id: clubId } }, signal })),
  });

export function useClub(clubId: number | null) {
  return useQuery({ ...clubQueryOptions(clubId ?? 0), enabled: clubId !== null });
}

/** GET /api/clubs?sport=&q=: the sport's clubs whose name holds the text (the merge's search). */
export function useClubSearch(sport: string, q: string) {
  return useQuery({
    queryKey: clubKeys.suggestions(sport, q),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/clubs', { params: { query: { sport: sport as never, q } }, signal })),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}

const followClubMutationKey = [...followKeys.all, 'club'] as const;

export type FollowClubInput = { clubId: number; name: string; follow: boolean };

/** Whether a follow or unfollow of the club is on its way. */
export function isFollowClubInFlight(queryClient: QueryClient, clubId: number): boolean {
  return isMutationInFlight<FollowClubInput>(
    queryClient,
    followClubMutationKey,
    (variables) => variables.clubId === clubId,
  );
}

export function followClub({ clubId, follow }: FollowClubInput): Promise<FollowStatus> {
  return follow
    ? unwrap(api.POST('/api/follow/club/{club_id}', { params: { path: { club_id: clubId } } }))
    : unwrap(api.DELETE('/api/follow', { body: { clubId } }));
}

/** The club's page after the reader's follow or unfollow: its button and its follower count. */
export function withFollowing(club: Club | undefined, following: boolean): Club | undefined {
  if (!club || club.isFollowing === following) return club;
  return {
    ...club,
    isFollowing: following,
    followerCount: Math.max(0, club.followerCount + (following ? 1 : -1)),
  };
}

/** Follows or unfollows a club (POST /api/follow/club/{id}, DELETE /api/follow with clubId). */
export function useFollowClub() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: followClubMutationKey,
    mutationFn: followClub,
    onSuccess: (_status, { clubId, name, follow }) => {
      queryClient.setQueryData<Club>(clubKeys.detail(clubId), (club) =>
        withFollowing(club, follow),
      );
      void queryClient.invalidateQueries({ queryKey: followKeys.followingLists() });
      toast(
        follow
          ? { title: 'Following', description: `You are now following ${name}.` }
          : { title: 'Unfollowed', description: `You have unfollowed ${name}.` },
      );
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'An error occurred while following.'),
      });
    },
  });
}

/** POST /api/admin/clubs/{id}/merge: an admin merges duplicates into this club. */
export function useMergeClubs(clubId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mergeIds: number[]): Promise<ClubRef> =>
      unwrap(
        api.POST('/api/admin/clubs/{club_id}/merge', {
          params: { path: { club_id: clubId } },
          body: { mergeIds },
        }),
      ),
    onSuccess: (club, mergeIds) => {
      void queryClient.invalidateQueries({ queryKey: clubKeys.all });
      toast({
        title: 'Clubs merged',
        description: `${mergeIds.length === 1 ? 'One club' : `${mergeIds.length} clubs`} merged into ${club.name}.`,
      });
    },
    onError: (error) => {
      toast({ variant: 'destructive', description: errorMessage(error, 'Failed to merge clubs.') });
    },
  });
}
