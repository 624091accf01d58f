import { RefreshCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

import { useSettings } from '../api/get-settings';

import { AccountInfoSection } from './account-info-section';
import { ChangePasswordSection } from './change-password-section';
import { DangerZoneSection } from './danger-zone-section';
import { NotificationSection } from './notification-section';
import { PrivacySection } from './privacy-section';
import { PushSection } from './push-section';
import { TimeZoneSection } from './time-zone-section';
import { TwoFactorSection } from './two-factor-section';

type SettingsViewProps = {
  account: { username: string; email: string; timeZone: string };
  /** Ends the session on this screen once the server has deleted the account. */
  onAccountDeleted: () => void;
  /** Two-factor sign-in just turned on: what the session may do has changed. */
  onTwoFactorEnrolled?: () => void;
  /** The account's time zone was saved: the session's copy is stale. */
  onAccountChanged?: () => void;
};

export function SettingsView({
  account,
  onAccountDeleted,
  onTwoFactorEnrolled,
  onAccountChanged,
}: SettingsViewProps) {
  const settings = useSettings();

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <AccountInfoSection username={account.username} email={account.email} />
      <ChangePasswordSection />
      <TwoFactorSection onEnrolled={onTwoFactorEnrolled} />
      {settings.isPending ? (
        <>
          <Skeleton className="h-64 rounded-xl" aria-label="Loading settings" />
          <Skeleton className="h-56 rounded-xl" />
        </>
      ) : settings.isError ? (
        <div className="rounded-xl border border-border bg-surface p-6 text-center shadow-sm">
          <p className="font-semibold">Your preferences could not be loaded.</p>
          <p className="mt-1 text-sm text-muted-foreground">{settings.error.message}</p>
          <Button
            variant="outline"
            className="mt-4"
            loading={settings.isRefetching}
            onClick={() => void settings.refetch()}
          >
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : (
        <>
          <NotificationSection settings={settings.data} />
          <PushSection />
          <PrivacySection settings={settings.data} />
          <TimeZoneSection timeZone={account.timeZone} onSaved={onAccountChanged} />
        </>
      )}
      <DangerZoneSection onAccountDeleted={onAccountDeleted} />
    </div>
  );
}
