import { Flag } from 'lucide-react';
import { useState } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import { Button } from '@/components/ui/button';
import { ChoiceFieldset } from '@/components/ui/choice-fieldset';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';

import { useReport } from '../api/report';
import { REPORT_REASONS, type ReportReason } from '../api/types';

type ReportButtonProps =
  | { nominationId: number; userId?: undefined; endorsementId?: undefined; what: string }
  | { userId: number; nominationId?: undefined; endorsementId?: undefined; what: string }
  | { endorsementId: number; nominationId?: undefined; userId?: undefined; what: string };

/**
 * "Report": a member tells the moderators what is wrong with a nomination, a profile or an
 * endorsement.
 */
export function ReportButton({ nominationId, userId, endorsementId, what }: ReportButtonProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const report = useReport();
  // Several Report buttons share a page (the nomination's, each endorsement's).
  const idSuffix = endorsementId === undefined ? '' : `-endorsement-${endorsementId}`;
  const changeOpen = (next: boolean) => {
    if (!next) {
      setReason(null);
      setText('');
    }
    setOpen(next);
  };

  return (
    <ActionDialog
      open={open}
      onOpenChange={changeOpen}
      trigger={
        <Button variant="ghost" size="sm">
          <Flag aria-hidden="true" />
          Report
        </Button>
      }
      title={`Report ${what}`}
      description="Tell our moderators what is wrong. You can report an item once."
      actionLabel="Send report"
      actionDisabled={!reason}
      pending={report.isPending}
      onAction={() => {
        if (!reason) return;
        report.mutate(
          { nominationId, userId, endorsementId, reason, text: text.trim() || undefined },
          { onSettled: () => changeOpen(false) },
        );
      }}
    >
      <ChoiceFieldset
        legend="Reason"
        name={`report-reason${idSuffix}`}
        choices={REPORT_REASONS}
        value={reason}
        onChange={setReason}
      />
      <Field id={`report-text${idSuffix}`} label="Details (optional)" className="mt-4">
        <Textarea
          id={`report-text${idSuffix}`}
          rows={3}
          maxLength={2000}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </Field>
    </ActionDialog>
  );
}
