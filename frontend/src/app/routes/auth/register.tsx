import { Navigate, useNavigate, useSearchParams } from 'react-router';

import { RegisterForm } from '@/features/auth/components/register-form';
import { useReturnTo } from '@/features/auth/hooks/use-return-to';
import { useUser } from '@/features/auth/hooks/use-user';

import { AuthPageShell } from './auth-page-shell';

export default function RegisterPage() {
  const returnTo = useReturnTo();
  const navigate = useNavigate();
  const { user } = useUser();
  const [params] = useSearchParams();
  // Already signed in: on to where the link was going.
  if (user) return <Navigate to={returnTo} replace />;
  return (
    <AuthPageShell
      title="Create your account"
      subtitle="Join the community: nominate young athletes, vote and climb the leaderboards. It's free."
    >
      <RegisterForm
        returnTo={returnTo}
        referralCode={params.get('ref') ?? ''}
        onSuccess={() => navigate(returnTo, { replace: true })}
      />
    </AuthPageShell>
  );
}
