import { CircleAlert, CircleCheck } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { useConfirmTakedown } from '../api/takedown';

/** The server's words for a link without its token. */
const LINK_INVALID = 'This confirmation link is not valid. Open the link from our email again.';

function Problem({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-xl border border-destructive/40 bg-surface p-6">
      <CircleAlert className="size-8 text-destructive" aria-hidden="true" />
      <p className="mt-3 text-sm">{message}</p>
      <Link to="/takedown" className="mt-3 inline-block text-sm text-primary hover:underline">
        Send a new request
      </Link>
    </div>
  );
}

/**
 * The page a takedown request's email links to. Confirming is a button, not the visit itself:
 * a mail scanner that opens the link confirms nothing.
 */
export function TakedownConfirm({ token }: { token: string | null }) {
  const confirm = useConfirmTakedown();

  if (!token) return <Problem message={LINK_INVALID} />;

  if (confirm.data) {
    return (
      <div role="status" className="rounded-xl border border-border bg-surface p-6">
        <CircleCheck className="size-8 text-success" aria-hidden="true" />
        <h2 className="mt-3 text-lg font-semibold">Your request is confirmed</h2>
        <p className="mt-2 text-sm">
          Your reference is <strong>{confirm.data.reference}</strong>.{' '}
          {confirm.data.playerHidden
            ? 'The profile is hidden from the site while our moderators review your request.'
            : confirm.data.underReview
              ? 'The profile is hidden from people who are not signed in, from shared links and share images, and marked as under review for members while our moderators review your request.'
              : 'Our moderators will review this profile and decide on your request; it stays on the site until then.'}{' '}
          We will write to you when it is decided.
        </p>
      </div>
    );
  }

  if (confirm.error) {
    return <Problem message={errorMessage(confirm.error, 'Failed to confirm your request.')} />;
  }

  return (
    <div className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-6">
      <p className="text-sm">
        Confirm that you asked us to remove or correct this player profile. As soon as you confirm,
        the profile is hidden from people who are not signed in and from shared links, while our
        moderators review your request.
      </p>
      <Button
        size="lg"
        loading={confirm.isPending}
        onClick={() =>
          confirm.mutate(
            { token },
            {
              onError: (error) =>
                toast({
                  variant: 'destructive',
                  title: 'Error',
                  description: errorMessage(error, 'Failed to confirm your request.'),
                }),
            },
          )
        }
      >
        Confirm request
      </Button>
    </div>
  );
}
