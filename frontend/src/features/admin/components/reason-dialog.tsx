import { useState, type ReactNode } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import { ChoiceFieldset, type Choice } from '@/components/ui/choice-fieldset';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';

type ReasonDialogProps<T extends string> = {
  title: string;
  description: ReactNode;
  choices: Choice<T>[];
  submitLabel: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onSubmit: (choice: T, reason: string) => void;
};

/**
 * An admin decision with a required reason: the reason goes to the moderation log and to the
 * person the decision affects.
 */
export function ReasonDialog<T extends string>({
  title,
  description,
  choices,
  submitLabel,
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
      actionDisabled={!reason.trim()}
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
      <Field id="decision-reason" label="Reason">
        <Textarea
          id="decision-reason"
          rows={3}
          maxLength={500}
          required
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field>
    </ActionDialog>
  );
}
