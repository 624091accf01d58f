import { useParams } from 'react-router';

import { useUser } from '@/features/auth/hooks/use-user';
import { ScoutProfile } from '@/features/social/components/scout-profile';

function parseId(value: string | undefined): number | null {
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/** Signed-in only (the router guards it), so the user is known here. */
export default function ScoutPage() {
  const { id } = useParams();
  const { user } = useUser();
  return <ScoutProfile key={id} userId={parseId(id)} viewerId={user?.id ?? 0} />;
}
