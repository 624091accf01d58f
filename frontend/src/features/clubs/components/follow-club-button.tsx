import { useQueryClient } from '@tanstack/react-query';
import { UserCheck, UserPlus } from 'lucide-react';

import { Button } from '@/components/ui/button';

import { isFollowClubInFlight, useFollowClub } from '../api/clubs';
import type { Club } from '../api/types';

/** Follow Club / Following: a toggle, held with a spinner while the call runs. */
export function FollowClubButton({ club, className }: { club: Club; className?: string }) {
  const queryClient = useQueryClient();
  const follow = useFollowClub();
  const following = club.isFollowing;
  return (
    <Button
      variant={following ? 'purple' : 'outline'}
      aria-pressed={following}
      loading={follow.isPending}
      keepFocus
      className={className}
      onClick={() => {
        if (isFollowClubInFlight(queryClient, club.id)) return;
        follow.mutate({ clubId: club.id, name: club.name, follow: !following });
      }}
    >
      {!follow.isPending &&
        (following ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />)}
      {following ? 'Following' : 'Follow Club'}
    </Button>
  );
}
