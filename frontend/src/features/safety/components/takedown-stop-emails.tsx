import { CircleAlert, CircleCheck } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';

import { useStopTakedownEmails } from '../api/takedown';

/** The server's words for a link without its token. */
const LINK_INVALID = 'This link is not valid. Open the link from our email again.';

function Problem({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-xl border border-destructive/40 bg-surface p-6">
      <CircleAlert className="size-8 text-destructive" aria-hidden="true" />
      <p className="mt-3 text-sm">{message}</p>
    </div>
  );
}

/**
 * The "do not email me again" link of a takedown confirmation email. Stopping is a button, not
 * the visit itself: a mail scanner that opens the link changes nothing.
 */
export function TakedownStopEmails({ token }: { token: string | null }) {
  const stop = useStopTakedownEmails();

  if (!token) return <Problem message={LINK_INVALID} />;

  if (stop.isSuccess) {
    return (
      <div role="status" className="rounded-xl border border-border bg-surface p-6">
        <CircleCheck className="size-8 text-success" aria-hidden="true" />
        <h2 className="mt-3 text-lg font-semibold">We will not email you again</h2>
        <p className="mt-2 text-sm">
          This address will receive no more emails asking to confirm a takedown request. Any request
          sent with it from now on is refused.
        </p>
      </div>
    );
  }

  if (stop.error) {
    return <Problem message={errorMessage(stop.error, 'Failed to stop the emails.')} />;
  }

  return (
    <div className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-6">
      <p className="text-sm">
        Someone gave this email address when asking us to remove or correct a player profile. If you
        do not want these emails, stop them here: this address will receive no more of them.
      </p>
      <Button size="lg" loading={stop.isPending} onClick={() => stop.mutate({ token })}>
        Stop these emails
      </Button>
    </div>
  );
}
