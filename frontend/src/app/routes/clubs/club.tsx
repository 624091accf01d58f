import { useEffect } from 'react';
import { useParams } from 'react-router';

import { ShareButton } from '@/components/share-button';
import { useUser } from '@/features/auth/hooks/use-user';
import { useClub } from '@/features/clubs/api/clubs';
import { ClubProfile } from '@/features/clubs/components/club-profile';
import { isSport, useSport } from '@/stores/sport';

function parseId(value: string | undefined): number | null {
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/**
 * A club's page, for members and the public alike (the server answers each its view). The live
 * socket follows the club's sport, so its players' votes arrive as they are cast.
 */
export default function ClubPage() {
  const clubId = parseId(useParams().id);
  const { user } = useUser();
  const club = useClub(clubId);
  const { sport, setSport } = useSport();
  const clubSport = club.data?.sport;
  useEffect(() => {
    if (isSport(clubSport) && clubSport !== sport) setSport(clubSport);
  }, [clubSport, sport, setSport]);
  return (
    <>
      <ClubProfile
        key={clubId ?? 'none'}
        clubId={clubId}
        viewer={{ signedIn: user != null, isAdmin: user?.actsAsAdmin === true }}
      />
      {club.data && (
        <div className="mt-6 flex justify-end border-t border-border pt-4">
          <ShareButton path={`/clubs/${club.data.id}`} title={`${club.data.name} on ScoutVote`} />
        </div>
      )}
    </>
  );
}
