import { Link } from 'react-router';

import { usePlayerClub } from '../api/clubs';

import { NOT_SPECIFIED } from './labels';

/** The player's club as typed, linked to the club's page once the club is known. */
export function ClubLink({ playerId, club }: { playerId: number; club: string }) {
  const found = usePlayerClub(playerId);
  if (!club) return <>{NOT_SPECIFIED}</>;
  const record = found.data?.club;
  if (!record) return <>{club}</>;
  return (
    <Link
      to={`/clubs/${record.id}`}
      className="font-medium text-primary underline-offset-4 hover:underline"
    >
      {club}
    </Link>
  );
}
