import { UserCheck, UserPlus } from 'lucide-react';
import { useEffect } from 'react';

import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toast';

import { useFollowScout, useFollowStatus } from '../api/follow-scout';

type FollowScoutButtonProps = {
  userId: number;
  name: string;
  size?: ButtonProps['size'];
  className?: string;
};

/** Follow / Following for one scout; disabled with a spinner while the change is sent. */
export function FollowScoutButton({
  userId,
  name,
  size = 'md',
  className,
}: FollowScoutButtonProps) {
  const status = useFollowStatus(userId);
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
      onClick={() => follow.mutate({ userId, name, isFollowing })}
    >
      {!follow.isPending &&
        (isFollowing ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />)}
      {label}
    </Button>
  );
}
