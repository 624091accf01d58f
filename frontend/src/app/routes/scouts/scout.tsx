import { useParams } from 'react-router';

import { ShareButton } from '@/components/share-button';
import { useUser } from '@/features/auth/hooks/use-user';
import { useProfileShared } from '@/features/engagement/api/engagement';
import { ProfileStreak } from '@/features/engagement/components/profile-streak';
import { ReportButton } from '@/features/safety/components/report-button';
import { ScoutProfile } from '@/features/social/components/scout-profile';

function parseId(value: string | undefined): number | null {
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/** Signed-in only (the router guards it), so the user is known here. */
export default function ScoutPage() {
  const { id } = useParams();
  const { user } = useUser();
  const userId = parseId(id);
  const shared = useProfileShared();
  // Sharing one's own profile counts for the share_profile quest (adults only; the server
  // decides and answers 403 to anyone else, which changes nothing here).
  const own = userId !== null && userId === user?.id && user.ageBand === 'adult';
  // Share and report only a profile there is: none under "Scout Not Found"; one's own is
  // shared, not reported.
  const footer = userId !== null && (
    <>
      <ProfileStreak userId={userId} />
      <div className="mt-6 flex flex-wrap justify-end gap-3 border-t border-border pt-4">
        <ShareButton
          path={`/scout/${userId}`}
          title="A scout on ScoutVote"
          onShared={own ? () => shared.mutate() : undefined}
        />
        {userId !== user?.id && <ReportButton userId={userId} what="this scout's profile" />}
      </div>
    </>
  );
  return <ScoutProfile key={id} userId={userId} viewerId={user?.id ?? 0} footer={footer} />;
}
