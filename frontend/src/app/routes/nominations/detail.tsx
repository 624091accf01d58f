import { useParams } from 'react-router';

import { ShareButton } from '@/components/share-button';
import { useUser } from '@/features/auth/hooks/use-user';
import { usePlayerControls } from '@/features/claims/api/claims';
import { ClaimButton } from '@/features/claims/components/claim-button';
import { PlayerControlsPanel } from '@/features/claims/components/player-controls';
import { EndorsementsSection } from '@/features/coaches/components/endorsements-section';
import { Provenance } from '@/features/coaches/components/provenance';
import { CommentsSection } from '@/features/comments/components/comments-section';
import { useNomination } from '@/features/nominations/api/get-nomination';
import type { Nomination } from '@/features/nominations/api/types';
import { ErrorState } from '@/features/nominations/components/error-state';
import {
  BackToNominations,
  NominationNotFound,
  NominationProfile,
  NominationProfileSkeleton,
} from '@/features/nominations/components/nomination-profile';
import { ReportButton } from '@/features/safety/components/report-button';
import { TakedownLink } from '@/features/safety/components/takedown-link';
import { usePlayerUpdates } from '@/features/updates/api/updates';
import { PlayerUpdates } from '@/features/updates/components/player-updates';
import { UnderReviewNotice } from '@/features/safety/components/under-review-notice';
import { ApiError } from '@/lib/api-client';
import { useWatchNomination } from '@/lib/live/presence';
import { WatchingCount } from '@/lib/live/watching-count';

/** Where the page's facts come from, with the date of the player's latest published update. */
function PlayerProvenance({ nomination }: { nomination: Nomination }) {
  const updates = usePlayerUpdates(nomination.player.id).data;
  const latest = updates?.pages[0]?.items.find((update) => update.status === 'published');
  return (
    <Provenance
      playerId={nomination.player.id}
      nominatedBy={nomination.nominatedBy}
      managedBy={nomination.player.managedBy}
      verified={nomination.player.verified}
      latestUpdateAt={latest?.createdAt}
    />
  );
}

export default function NominationDetailPage() {
  const id = Number(useParams().id);
  const { user } = useUser();
  const query = useNomination(id);
  const managed = Boolean(query.data?.player.managedBy);
  // Read by the claimant only (403 for anyone else): its answer says who manages the page.
  const controls = usePlayerControls(query.data?.player.id ?? 0, managed && user != null);
  useWatchNomination(Number.isInteger(id) && id > 0 ? id : null);

  if (!Number.isInteger(id) || id <= 0) return <NominationNotFound />;
  // A 404 wins over the nomination already shown: a live event about it (rejected, taken down,
  // removed) reads it again, and a reader who may no longer see it gets the 404 while the
  // cache still holds what it showed before.
  if (query.error instanceof ApiError && query.error.status === 404) {
    return <NominationNotFound />;
  }
  if (query.isError && !query.data) {
    return (
      <>
        <BackToNominations />
        <ErrorState
          title="Could not load this nomination"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isRefetching}
        />
      </>
    );
  }
  if (!query.data) return <NominationProfileSkeleton />;

  const nomination = query.data;
  const isClaimant = managed && controls.data != null;
  // Once claimed, the claimant edits the player instead of its nominator (admins always).
  const canEdit =
    user?.actsAsAdmin === true || (managed ? isClaimant : user?.id === nomination.nominatedBy.id);
  return (
    <>
      <UnderReviewNotice nominationId={nomination.id} />
      <NominationProfile nomination={nomination} canEdit={canEdit} />
      <PlayerProvenance nomination={nomination} />
      <EndorsementsSection
        playerId={nomination.player.id}
        viewerId={user?.id}
        renderReport={(endorsement) => (
          <ReportButton
            endorsementId={endorsement.id}
            what={`the endorsement by ${endorsement.coach.name}`}
          />
        )}
      />
      {isClaimant && controls.data && <PlayerControlsPanel controls={controls.data} />}
      <PlayerUpdates
        playerId={nomination.player.id}
        canWrite={isClaimant || user?.role === 'coach'}
        viewer={{ id: user?.id, isAdmin: user?.actsAsAdmin === true, isClaimant }}
      />
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <WatchingCount scope="nomination" id={nomination.id} />
        <ShareButton
          path={`/nominations/${nomination.id}`}
          title={`${nomination.player.name} on ScoutVote`}
        />
      </div>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-border pt-4">
        <div className="flex flex-wrap items-center gap-3">
          <TakedownLink nominationId={nomination.id} />
          {!managed && user && user.role !== 'admin' && (
            <ClaimButton playerId={nomination.player.id} playerName={nomination.player.name} />
          )}
        </div>
        <ReportButton
          nominationId={nomination.id}
          what={`the nomination of ${nomination.player.name}`}
        />
      </div>
      {user && (
        <CommentsSection
          nominationId={nomination.id}
          viewer={{ id: user.id, actsAsAdmin: user.actsAsAdmin === true }}
        />
      )}
    </>
  );
}
