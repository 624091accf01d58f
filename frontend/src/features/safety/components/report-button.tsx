import { Flag } from 'lucide-react';
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
  DialogTrigger,
} from '@/components/ui/dialog';
import { ChoiceFieldset } from '@/components/ui/choice-fieldset';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';

import { useReport } from '../api/report';
import { REPORT_REASONS, type ReportReason } from '../api/types';

type ReportButtonProps =
  | { nominationId: number; userId?: undefined; what: string }
  | { userId: number; nominationId?: undefined; what: string };

/** "Report": a member tells the moderators what is wrong with a nomination or a profile. */
export function ReportButton({ nominationId, userId, what }: ReportButtonProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const report = useReport();
  const changeOpen = (next: boolean) => {
    if (!next) {
      setReason(null);
      setText('');
    }
    setOpen(next);
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm">
          <Flag aria-hidden="true" />
          Report
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!reason) return;
            report.mutate(
              { nominationId, userId, reason, text: text.trim() || undefined },
              { onSettled: () => changeOpen(false) },
            );
          }}
        >
          <DialogHeader>
            <DialogTitle>Report {what}</DialogTitle>
            <DialogDescription>
              Tell our moderators what is wrong. You can report an item once.
            </DialogDescription>
          </DialogHeader>
          <ChoiceFieldset
            legend="Reason"
            name="report-reason"
            choices={REPORT_REASONS}
            value={reason}
            onChange={setReason}
          />
          <Field id="report-text" label="Details (optional)" className="mt-4">
            <Textarea
              id="report-text"
              rows={3}
              maxLength={2000}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </Field>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={report.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={!reason} loading={report.isPending}>
              Send report
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
