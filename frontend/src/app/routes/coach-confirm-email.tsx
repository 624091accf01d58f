import { useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { ConfirmWorkEmail } from '@/features/coaches/components/confirm-work-email';

/** Public: the link emailed to a coach's work address, confirmed with one button. */
export default function CoachConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Confirm your work email"
        description="You asked to be verified as a coach on ScoutVote with this address."
      />
      <ConfirmWorkEmail token={searchParams.get('token')} />
    </div>
  );
}
