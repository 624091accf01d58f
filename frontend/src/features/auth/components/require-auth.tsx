import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { PageSpinner } from '@/components/ui/spinner';

import { useUser } from '../hooks/use-user';

/** Renders its children for a signed-in user; sends anyone else to /login?returnTo=<here>. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isPending, error } = useUser();
  const location = useLocation();

  if (isPending) return <PageSpinner label="Checking your session" />;
  // Only a first read that failed is an error page: when a later read fails (the server
  // restarting while the session is checked again), the user already known stays signed in.
  if (user === undefined && error) throw error;
  if (!user) {
    const returnTo = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?returnTo=${encodeURIComponent(returnTo)}`} replace />;
  }
  return children;
}
