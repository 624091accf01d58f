import { useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { TakedownConfirm } from '@/features/safety/components/takedown-confirm';

/** Public: the link of a takedown request's email, confirmed with one button. */
export default function TakedownConfirmPage() {
  const [searchParams] = useSearchParams();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Confirm your request"
        description="You asked us to remove or correct a player profile. Nothing changes until you confirm."
      />
      <TakedownConfirm token={searchParams.get('token')} />
    </div>
  );
}
