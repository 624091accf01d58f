import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/stores/toast';

import { useUser } from '../hooks/use-user';

/**
 * Renders its children for an admin. A signed-out visitor is told to sign in and sent to the
 * login page; a signed-in non-admin is told they lack permission and sent home.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, isPending, error } = useUser();
  const location = useLocation();
  // A failed read is an error page only when nothing was read before (see RequireAuth).
  const failure = user === undefined ? error : null;
  const outcome =
    isPending || failure
      ? 'waiting'
      : !user
        ? 'signed-out'
        : user.role !== 'admin'
          ? 'denied'
          : 'allowed';

  useEffect(() => {
    if (outcome === 'signed-out') {
      toast({
        variant: 'destructive',
        title: 'Authentication Required',
        description: 'Please sign in to access the admin dashboard.',
      });
    } else if (outcome === 'denied') {
      toast({
        variant: 'destructive',
        title: 'Access Denied',
        description: 'You do not have permission to access the admin dashboard.',
      });
    }
  }, [outcome]);

  if (failure) throw failure;
  switch (outcome) {
    case 'waiting':
      return <PageSpinner label="Checking your session" />;
    case 'signed-out': {
      const returnTo = `${location.pathname}${location.search}`;
      return <Navigate to={`/login?returnTo=${encodeURIComponent(returnTo)}`} replace />;
    }
    case 'denied':
      return <Navigate to="/" replace />;
    default:
      return children;
  }
}
