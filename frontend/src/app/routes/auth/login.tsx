import { useNavigate } from 'react-router';

import { LoginForm } from '@/features/auth/components/login-form';
import { useReturnTo } from '@/features/auth/hooks/use-return-to';

import { AuthPageShell } from './auth-page-shell';

export default function LoginPage() {
  const returnTo = useReturnTo();
  const navigate = useNavigate();
  return (
    <AuthPageShell title="Sign in" subtitle="Welcome back. Sign in to nominate and vote.">
      <LoginForm returnTo={returnTo} onSuccess={() => navigate(returnTo, { replace: true })} />
    </AuthPageShell>
  );
}
