import { Navigate, useNavigate } from 'react-router';

import { LoginForm } from '@/features/auth/components/login-form';
import { useReturnTo } from '@/features/auth/hooks/use-return-to';
import { useUser } from '@/features/auth/hooks/use-user';
import { TakedownHint } from '@/features/safety/components/takedown-hint';

import { AuthPageShell } from './auth-page-shell';

export default function LoginPage() {
  const returnTo = useReturnTo();
  const navigate = useNavigate();
  const { user } = useUser();
  // Already signed in: on to where the link was going.
  if (user) return <Navigate to={returnTo} replace />;
  return (
    <AuthPageShell title="Sign in" subtitle="Welcome back. Sign in to nominate and vote.">
      <LoginForm returnTo={returnTo} onSuccess={() => navigate(returnTo, { replace: true })} />
      <TakedownHint returnTo={returnTo} />
    </AuthPageShell>
  );
}
