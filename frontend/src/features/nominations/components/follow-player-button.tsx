import { useQueryClient } from '@tanstack/react-query';
import { UserCheck, UserPlus } from 'lucide-react';

import { Button } from '@/components/ui/button';

import {
  isFollowPlayerInFlight,
  useFollowPlayer,
  usePlayerFollowStatus,
} from '../api/follow-player';
import type { Player } from '../api/types';

/**
 * Follow Player / Following: a toggle, held with a spinner while the call runs (a click meanwhile
 * does nothing).
 */
export function FollowPlayerButton({ player }: { player: Pick<Player, 'id' | 'name'> }) {
  const status = usePlayerFollowStatus(player.id);
  const queryClient = useQueryClient();
  const follow = useFollowPlayer();
  const following = status.data?.isFollowing ?? false;
  return (
    <Button
      variant={following ? 'purple' : 'outline'}
      aria-pressed={following}
      disabled={status.isPending}
      loading={follow.isPending}
      keepFocus
      onClick={() => {
        if (isFollowPlayerInFlight(queryClient, player.id)) return;
        follow.mutate({ playerId: player.id, playerName: player.name, follow: !following });
      }}
    >
      {!follow.isPending &&
        (following ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />)}
      {following ? 'Following' : 'Follow Player'}
    </Button>
  );
}
