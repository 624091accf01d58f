import {
  useIsMutating,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { voteCountToShow } from '@/lib/live/vote-versions';
import { toast } from '@/stores/toast';

import { setOwnVote, setVoteState } from './nomination-cache';
import { nominationKeys, voteMutationKey } from './nomination-keys';
import { refreshAfterVoteOrFollow } from './refresh';
import type { VoteState } from './types';

export type VoteVariables = {
  nominationId: number;
  /** For the toast. */
  playerName: string;
  /** true casts the vote, false takes it back. */
  vote: boolean;
};

export function castVote({ nominationId, vote }: VoteVariables): Promise<VoteState> {
  return vote
    ? unwrap(api.POST('/api/votes', { body: { nominationId } }))
    : unwrap(
        api.DELETE('/api/votes/{nomination_id}', {
          params: { path: { nomination_id: nominationId } },
        }),
      );
}

const forNomination = (nominationId: number) => ({
  mutationKey: voteMutationKey,
  predicate: (mutation: { state: { variables: unknown } }) =>
    (mutation.state.variables as VoteVariables | undefined)?.nominationId === nominationId,
});

/** Whether a vote or unvote on this nomination is on its way (live counts wait for it). */
export function isVoteInFlight(queryClient: QueryClient, nominationId: number): boolean {
  return queryClient.isMutating(forNomination(nominationId)) > 0;
}

export function useVoteInFlight(nominationId: number): boolean {
  return useIsMutating(forNomination(nominationId)) > 0;
}

/**
 * Votes or takes a vote back, optimistically. Each click moves hasVoted and the count at once in
 * every cached copy; a failure moves them back. Reads are refreshed only when the last vote in
 * flight settles, so a refetch never overwrites a click still on its way (no flicker).
 */
export function useVoteToggle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: voteMutationKey,
    mutationFn: castVote,
    onMutate: async ({ nominationId, vote }) => {
      await queryClient.cancelQueries({ queryKey: nominationKeys.all });
      setOwnVote(queryClient, nominationId, vote);
    },
    onSuccess: (state, { playerName, vote }) => {
      // A newer live count that arrived while this call was on its way has the last word.
      setVoteState(queryClient, { ...state, voteCount: voteCountToShow(queryClient, state) });
      toast(
        vote
          ? { title: 'Vote submitted', description: `You have voted for ${playerName}.` }
          : { title: 'Vote removed', description: `You have removed your vote for ${playerName}.` },
      );
    },
    onError: (error, { nominationId, vote }) => {
      setOwnVote(queryClient, nominationId, !vote);
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'An error occurred while voting.'),
      });
    },
    onSettled: () => {
      // This mutation still counts itself: 1 means no other vote is in flight.
      if (queryClient.isMutating({ mutationKey: voteMutationKey }) === 1) {
        refreshAfterVoteOrFollow(queryClient);
      }
    },
  });
}
