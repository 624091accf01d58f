import { UserRound } from 'lucide-react';
import type { ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { DocumentTitle } from '@/components/ui/document-title';
import { PageHeader } from '@/components/ui/page-header';

import { useProfile } from '../api/get-profile';

import { AvatarCard } from './avatar-card';
import { ProfileForm } from './profile-form';

type ProfileViewProps = {
  /** Runs after the name or picture changed, for what else shows the user (the header). */
  onUserChanged?: () => void;
  /** Shown to a visitor who is not signed in, under the message. */
  signInAction?: ReactNode;
  /** Whether a user is signed in (undefined while the session is read): no profile is asked
   * for a visitor who is not. */
  signedIn?: boolean;
};

export function ProfileView({ onUserChanged, signInAction, signedIn }: ProfileViewProps) {
  const profile = useProfile({ enabled: signedIn === true });

  if (signedIn !== false && profile.isPending) {
    return (
      <p role="status" className="py-16 text-center text-muted-foreground">
        <DocumentTitle title="Your Profile" />
        Loading profile...
      </p>
    );
  }

  if (profile.isError) {
    return (
      <div className="rounded-xl border border-border bg-surface p-8 text-center shadow-sm">
        <DocumentTitle title="Your Profile" />
        <h1 className="font-semibold">Your profile could not be loaded.</h1>
        <p className="mt-1 text-sm text-muted-foreground">{profile.error.message}</p>
        <Button variant="outline" className="mt-4" onClick={() => void profile.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  if (signedIn === false || !profile.data) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center rounded-2xl border border-border bg-surface px-6 py-12 text-center shadow-sm">
        <DocumentTitle title="Your Profile" />
        <span className="flex size-14 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <UserRound className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-lg font-semibold">Please log in to view your profile</h1>
        {signInAction}
      </div>
    );
  }

  return (
    <>
      <PageHeader title="Your Profile" description="Your picture, details and favorite sport." />
      <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start">
        <AvatarCard profile={profile.data} onAvatarUpdated={onUserChanged} />
        <ProfileForm key={profile.data.id} profile={profile.data} onSaved={onUserChanged} />
      </div>
    </>
  );
}
