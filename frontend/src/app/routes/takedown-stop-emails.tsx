import { useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { TakedownStopEmails } from '@/features/safety/components/takedown-stop-emails';

/** Public: the "do not email me again" link of a takedown confirmation email. */
export default function TakedownStopEmailsPage() {
  const [searchParams] = useSearchParams();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Stop takedown emails"
        description="No more emails asking this address to confirm a takedown request."
      />
      <TakedownStopEmails token={searchParams.get('token')} />
    </div>
  );
}
