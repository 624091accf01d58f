import { useState } from 'react';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
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
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onReject(reason);
          }}
        >
          <DialogHeader>
            <DialogTitle>Reject Nomination</DialogTitle>
            <DialogDescription>
              Reject the nomination of {playerName}. The nominator is notified, with your reason if
              you give one.
            </DialogDescription>
          </DialogHeader>
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
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={pending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" loading={pending}>
              Reject
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
