import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';

import { playerPageOf } from '../api/takedown';

/**
 * Under the sign-in form when the link being opened is a player's page: a parent holding a
 * shared link can ask for the profile to be taken down without an account.
 */
export function TakedownHint({ returnTo }: { returnTo: string }) {
  const nominationId = playerPageOf(returnTo);
  if (nominationId === null) return null;
  return (
    <aside
      aria-label="Is this your child?"
      className="mt-6 rounded-xl border border-border bg-muted/50 p-4 text-sm"
    >
      <p className="flex items-center gap-2 font-medium">
        <ShieldAlert className="size-4 text-primary" aria-hidden="true" />
        Is this your child&apos;s profile, or yours?
      </p>
      <p className="mt-1 text-muted-foreground">
        You do not need an account to ask us to remove or correct it.
      </p>
      <Link
        to={`/takedown?nomination=${nominationId}`}
        className="mt-2 inline-block font-medium text-primary hover:underline"
      >
        Ask us to take this profile down
      </Link>
    </aside>
  );
}
