import { useQueryClient } from '@tanstack/react-query';
import { LogIn } from 'lucide-react';
import { useCallback } from 'react';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { authKeys } from '@/features/auth/api/auth-keys';
import { withReturnTo } from '@/features/auth/hooks/use-return-to';
import { useUser } from '@/features/auth/hooks/use-user';
import { ProfileView } from '@/features/profile/components/profile-view';

export default function ProfilePage() {
  const queryClient = useQueryClient();
  const { user } = useUser();
  // The header's user menu shows the session user's name and picture.
  const refreshSessionUser = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: authKeys.me() }),
    [queryClient],
  );

  return (
    <ProfileView
      onUserChanged={refreshSessionUser}
      signedIn={user === undefined ? undefined : user !== null}
      signInAction={
        <Link
          to={withReturnTo('/login', '/profile')}
          className={buttonClasses({ className: 'mt-6' })}
        >
          <LogIn aria-hidden="true" />
          Sign in
        </Link>
      }
    />
  );
}
