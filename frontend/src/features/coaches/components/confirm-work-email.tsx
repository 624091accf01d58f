import { CheckCircle2 } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';

import { useConfirmWorkEmail } from '../api/verification';

/** The work email's link: one button confirms it (the link alone changes nothing). */
export function ConfirmWorkEmail({ token }: { token: string | null }) {
  const confirm = useConfirmWorkEmail();
  if (!token) {
    return <p className="text-sm text-destructive">This link is not valid.</p>;
  }
  if (confirm.isSuccess) {
    return (
      <p className="flex items-center gap-2 text-sm" role="status">
        <CheckCircle2 className="size-5 text-success" aria-hidden="true" />
        Your work email is confirmed. Our moderators will decide on your request.
      </p>
    );
  }
  return (
    <div className="flex flex-col items-start gap-3">
      <Button disabled={confirm.isPending} onClick={() => confirm.mutate(token)}>
        Confirm my work email
      </Button>
      {confirm.isError && (
        <p className="text-sm text-destructive" role="alert">
          {errorMessage(confirm.error, 'Failed to confirm. Please try again.')}
        </p>
      )}
    </div>
  );
}
