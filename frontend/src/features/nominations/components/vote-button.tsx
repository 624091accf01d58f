import { useQueryClient } from '@tanstack/react-query';
import { Check, ThumbsUp } from 'lucide-react';

import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/utils';

import { isVoteInFlight, useVoteInFlight, useVoteToggle } from '../api/vote';
import type { Nomination } from '../api/types';

type VoteButtonProps = {
  nomination: Pick<Nomination, 'id' | 'hasVoted' | 'player'>;
  size?: ButtonProps['size'];
  className?: string;
};

/**
 * VOTE casts a vote, VOTED takes it back; held with a spinner while the call runs. A click while
 * a call for the nomination is on its way (the second of a double click comes before the button
 * shows it is held) does nothing.
 */
export function VoteButton({ nomination, size = 'md', className }: VoteButtonProps) {
  const queryClient = useQueryClient();
  const toggle = useVoteToggle();
  const inFlight = useVoteInFlight(nomination.id);
  const voted = nomination.hasVoted;
  const Icon = voted ? Check : ThumbsUp;
  return (
    <Button
      size={size}
      variant={voted ? 'secondary' : 'primary'}
      aria-pressed={voted}
      loading={inFlight}
      keepFocus
      title={voted ? `Remove your vote for ${nomination.player.name}` : undefined}
      onClick={() => {
        if (isVoteInFlight(queryClient, nomination.id)) return;
        toggle.mutate({
          nominationId: nomination.id,
          playerName: nomination.player.name,
          vote: !voted,
        });
      }}
      className={cn('min-w-28 tracking-wide', className)}
    >
      {!inFlight && <Icon aria-hidden="true" />}
      {voted ? 'VOTED' : 'VOTE'}
    </Button>
  );
}
