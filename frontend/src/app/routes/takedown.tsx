import { useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { TakedownRequestForm } from '@/features/safety/components/takedown-form';

function parseId(value: string | null): number | null {
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/** Public: an athlete or a parent asks, without an account, to remove or correct a profile. */
export default function TakedownPage() {
  const [searchParams] = useSearchParams();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Remove or correct a player profile"
        description="Athletes cannot create their own profiles here: members nominate them. If a profile is about you or your child, you can ask us to remove or correct it. No account is needed. We email you a link to confirm your request: the profile is hidden from the site as soon as you confirm, while our moderators review it."
      />
      <TakedownRequestForm nominationId={parseId(searchParams.get('nomination'))} />
    </div>
  );
}
