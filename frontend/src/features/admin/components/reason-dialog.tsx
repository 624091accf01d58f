import { useState, type ReactNode } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import type { ButtonVariant } from '@/components/ui/button-classes';
import { ChoiceFieldset, type Choice } from '@/components/ui/choice-fieldset';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { LIMITS } from '@/lib/api/limits';

/** The most a decision's reason may hold, as the server checks it (one bound for every decision). */
const REASON_MAX = LIMITS.ReportResolveIn.reason.maxLength;

type ReasonDialogProps<T extends string> = {
  title: string;
  description: ReactNode;
  /** The actions to choose from; with one, no choice is shown. */
  choices: Choice<T>[];
  submitLabel: string;
  submitVariant?: ButtonVariant;
  /** A required reason keeps the action disabled until one is typed. */
  reasonRequired?: boolean;
  placeholder?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  /** Called with the chosen action and the trimmed reason ('' when none was given). */
  onSubmit: (choice: T, reason: string) => void;
};

/**
 * An admin decision with a reason: the reason goes to the moderation log and to the person the
 * decision affects. Closing the dialog forgets what was typed.
 */
export function ReasonDialog<T extends string>({
  title,
  description,
  choices,
  submitLabel,
  submitVariant,
  reasonRequired = true,
  placeholder,
  open,
  onOpenChange,
  pending,
  onSubmit,
}: ReasonDialogProps<T>) {
  const [choice, setChoice] = useState<T>(choices[0].value);
  const [reason, setReason] = useState('');
  const changeOpen = (next: boolean) => {
    if (!next) {
      setReason('');
      setChoice(choices[0].value);
    }
    onOpenChange(next);
  };

  return (
    <ActionDialog
      open={open}
      onOpenChange={changeOpen}
      title={title}
      description={description}
      actionLabel={submitLabel}
      actionVariant={submitVariant}
      actionDisabled={reasonRequired && !reason.trim()}
      pending={pending}
      onAction={() => onSubmit(choice, reason.trim())}
    >
      {choices.length > 1 && (
        <ChoiceFieldset
          legend="Action"
          name="decision-choice"
          choices={choices}
          value={choice}
          onChange={setChoice}
          className="mb-4 flex flex-col gap-2"
        />
      )}
      <Field id="decision-reason" label={reasonRequired ? 'Reason' : 'Reason (optional)'}>
        <Textarea
          id="decision-reason"
          rows={reasonRequired ? 3 : 4}
          maxLength={REASON_MAX}
          required={reasonRequired}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          placeholder={placeholder}
        />
      </Field>
    </ActionDialog>
  );
}
