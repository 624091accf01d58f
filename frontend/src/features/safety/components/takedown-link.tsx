import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';

/** On every player page: the athlete or a parent can ask to remove or correct it. */
export function TakedownLink({ nominationId }: { nominationId: number }) {
  return (
    <Link
      to={`/takedown?nomination=${nominationId}`}
      className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground hover:underline"
    >
      <ShieldAlert className="size-4" aria-hidden="true" />
      Is this you or your child? Ask us to remove or correct this profile
    </Link>
  );
}
