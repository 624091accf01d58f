import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { authKeys } from '@/features/auth/api/auth-keys';
import { useUser } from '@/features/auth/hooks/use-user';
import { ManagedProfilesSection } from '@/features/claims/components/managed-profiles';
import { CoachVerificationSection } from '@/features/coaches/components/coach-verification-section';
import { EngagementSection } from '@/features/engagement/components/engagement-section';
import { ExportDataSection } from '@/features/safety/components/export-data-section';
import { SettingsView } from '@/features/settings/components/settings-view';
import { forgetOwnVotes } from '@/lib/live/vote-versions';

/** Signed-in only (the router guards it), so the user is known here. */
export default function SettingsPage() {
  const { user } = useUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  // The server ended the session with the account: leave first, then forget everything cached.
  const endSession = () => {
    void navigate('/', { replace: true });
    queryClient.clear();
    forgetOwnVotes(queryClient);
    queryClient.setQueryData(authKeys.me(), null);
  };

  return (
    <>
      <PageHeader title="Settings" description="Account, password, notifications and privacy." />
      <SettingsView
        account={{
          username: user?.username ?? '',
          email: user?.email ?? '',
          timeZone: user?.timeZone ?? '',
        }}
        onAccountDeleted={endSession}
        onTwoFactorEnrolled={() => void queryClient.invalidateQueries({ queryKey: authKeys.me() })}
        onAccountChanged={() => void queryClient.invalidateQueries({ queryKey: authKeys.me() })}
      />
      <EngagementSection adult={user?.ageBand === 'adult'} />
      <div className="mt-6 flex flex-col gap-6">
        <ManagedProfilesSection />
        <CoachVerificationSection />
        <ExportDataSection />
      </div>
    </>
  );
}
