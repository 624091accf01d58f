import { useNavigate } from 'react-router';

import { RegisterForm } from '@/features/auth/components/register-form';
import { useReturnTo } from '@/features/auth/hooks/use-return-to';

import { AuthPageShell } from './auth-page-shell';

export default function RegisterPage() {
  const returnTo = useReturnTo();
  const navigate = useNavigate();
  return (
    <AuthPageShell
      title="Create your account"
      subtitle="Join the community: nominate young athletes, vote and climb the leaderboards. It's free."
    >
      <RegisterForm returnTo={returnTo} onSuccess={() => navigate(returnTo, { replace: true })} />
    </AuthPageShell>
  );
}
