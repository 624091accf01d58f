import { useQueryClient } from '@tanstack/react-query';
import { UserCheck, UserPlus } from 'lucide-react';
import { useEffect } from 'react';

import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toast';

import { isFollowScoutInFlight, useFollowScout, useFollowStatus } from '../api/follow-scout';

type FollowScoutButtonProps = {
  userId: number;
  name: string;
  size?: ButtonProps['size'];
  className?: string;
};

/**
 * Follow / Following for one scout; held with a spinner while the change is sent (a click
 * meanwhile does nothing).
 */
export function FollowScoutButton({
  userId,
  name,
  size = 'md',
  className,
}: FollowScoutButtonProps) {
  const status = useFollowStatus(userId);
  const queryClient = useQueryClient();
  const follow = useFollowScout();
  const isFollowing = status.data?.isFollowing ?? false;
  const label = isFollowing ? 'Following' : 'Follow';

  useEffect(() => {
    if (status.isError) {
      toast({ variant: 'destructive', description: 'Failed to check follow status' });
    }
  }, [status.isError]);

  return (
    <Button
      size={size}
      variant={isFollowing ? 'outline' : 'primary'}
      className={cn('tracking-wide uppercase', className)}
      loading={follow.isPending}
      keepFocus
      disabled={status.isPending}
      aria-label={`${label} ${name}`}
      aria-pressed={isFollowing}
      onClick={() => {
        if (isFollowScoutInFlight(queryClient, userId)) return;
        follow.mutate({ userId, name, isFollowing });
      }}
    >
      {!follow.isPending &&
        (isFollowing ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />)}
      {label}
    </Button>
  );
}
