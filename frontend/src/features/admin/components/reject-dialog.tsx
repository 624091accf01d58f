import { useState } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';

/** The reason is kept on the nomination and told to the nominator; the server takes 500. */
const REASON_MAX = 500;

type RejectDialogProps = {
  playerName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onReject: (reason: string) => void;
};

/** Rejects a nomination with an optional reason. */
export function RejectDialog({
  playerName,
  open,
  onOpenChange,
  pending,
  onReject,
}: RejectDialogProps) {
  const [reason, setReason] = useState('');
  const changeOpen = (next: boolean) => {
    if (!next) setReason('');
    onOpenChange(next);
  };

  return (
    <ActionDialog
      open={open}
      onOpenChange={changeOpen}
      title="Reject Nomination"
      description={`Reject the nomination of ${playerName}. The nominator is notified, with your reason if you give one.`}
      actionLabel="Reject"
      actionVariant="destructive"
      pending={pending}
      onAction={() => onReject(reason)}
    >
      <Field id="reject-reason" label="Reason (optional)">
        <Textarea
          id="reject-reason"
          rows={4}
          maxLength={REASON_MAX}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          placeholder="Why is this nomination rejected?"
        />
      </Field>
    </ActionDialog>
  );
}
