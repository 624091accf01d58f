import { zodResolver } from '@hookform/resolvers/zod';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { SPORTS } from '@/stores/sport';
import { toast } from '@/stores/toast';

import {
  AGE_MAX,
  AGE_MIN,
  duplicateNominationId,
  GRADUATION_YEAR_MAX,
  GRADUATION_YEAR_MIN,
  nominationInputSchema,
  playerUpdateInputSchema,
  serverFieldErrors,
  type NominationFormValues,
  type NominationInput,
} from '../api/player-schema';

import { ClubCombobox } from './club-combobox';

export type PlayerFormMode = 'nominate' | 'edit';

const modes = {
  nominate: {
    schema: nominationInputSchema,
    submit: 'Submit Nomination',
    pending: 'Submitting...',
    success: (name: string) => `${name} has been nominated successfully.`,
    failure: 'Failed to submit nomination. Please try again.',
    skillsLabel: 'Skills & Strengths',
  },
  edit: {
    schema: playerUpdateInputSchema,
    submit: 'Save Changes',
    pending: 'Saving...',
    success: (name: string) => `${name}'s information has been updated successfully.`,
    failure: 'Failed to update player information. Please try again.',
    skillsLabel: 'Skills & Strengths (optional)',
  },
} as const;

type PlayerFormProps = {
  mode: PlayerFormMode;
  defaultValues: NominationFormValues;
  /** The call; it rejects with the server's error. */
  onSubmit: (values: NominationInput) => Promise<unknown>;
  /** After a successful call (the success toast is already shown). */
  onDone: () => void;
  /** Closes the dialog from the "already nominated" link. */
  onNavigate?: () => void;
};

/**
 * The Athlete Nomination form and the Edit Player Information form: the same fields, the spec's
 * messages, the server's own per-field messages on the fields, and a link to the existing
 * nomination when the player was already nominated.
 */
export function PlayerForm({ mode, defaultValues, onSubmit, onDone, onNavigate }: PlayerFormProps) {
  const text = modes[mode];
  const [duplicateOf, setDuplicateOf] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control: formControl,
    formState: { errors, isSubmitting },
  } = useForm<NominationFormValues, unknown, NominationInput>({
    resolver: zodResolver(text.schema),
    defaultValues,
  });

  const submit = handleSubmit(async (values) => {
    setDuplicateOf(null);
    try {
      await onSubmit(values);
    } catch (error) {
      // Said once: on the fields it belongs to, or in the "already nominated" notice, else
      // in a toast.
      const onFields = serverFieldErrors(error);
      for (const [field, message] of onFields) {
        setError(field, { type: 'server', message });
      }
      const duplicate = duplicateNominationId(error);
      setDuplicateOf(duplicate);
      if (onFields.length === 0 && duplicate === null) {
        toast({ variant: 'destructive', description: errorMessage(error, text.failure) });
      }
      return;
    }
    toast({ title: 'Success', description: text.success(values.name) });
    onDone();
  });

  const [sport, club] = useWatch({ control: formControl, name: ['sport', 'club'] });

  const fieldId = (name: keyof NominationFormValues) => `${mode}-player-${name}`;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {duplicateOf !== null && (
        <div
          role="alert"
          className="flex gap-3 rounded-lg border border-warning/40 bg-warning-soft p-3 text-sm text-foreground"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
          <p>
            This player has already been nominated.{' '}
            <Link
              to={`/nominations/${duplicateOf}`}
              onClick={onNavigate}
              className="font-semibold text-primary underline-offset-4 hover:underline"
            >
              View the existing nomination
            </Link>
          </p>
        </div>
      )}

      <Field id={fieldId('name')} label="Player Name" error={errors.name?.message}>
        {(control) => (
          <Input autoComplete="off" placeholder="Full name" {...control} {...register('name')} />
        )}
      </Field>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={fieldId('age')}
          label="Age"
          error={errors.age?.message}
          hint="Leave blank if you give a graduation year."
        >
          {(control) => (
            <Input
              type="number"
              inputMode="numeric"
              min={AGE_MIN}
              max={AGE_MAX}
              {...control}
              {...register('age')}
            />
          )}
        </Field>
        <Field
          id={fieldId('graduationYear')}
          label="Graduation Year (optional)"
          error={errors.graduationYear?.message}
        >
          {(control) => (
            <Input
              type="number"
              inputMode="numeric"
              min={GRADUATION_YEAR_MIN}
              max={GRADUATION_YEAR_MAX}
              placeholder={`${GRADUATION_YEAR_MIN}-${GRADUATION_YEAR_MAX}`}
              {...control}
              {...register('graduationYear')}
            />
          )}
        </Field>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={fieldId('position')} label="Position" error={errors.position?.message}>
          {(control) => (
            <Input
              autoComplete="off"
              placeholder="e.g. Point Guard"
              {...control}
              {...register('position')}
            />
          )}
        </Field>
        <Field id={fieldId('nationality')} label="Nationality" error={errors.nationality?.message}>
          {(control) => (
            <Input
              autoComplete="off"
              placeholder="e.g. Canadian"
              {...control}
              {...register('nationality')}
            />
          )}
        </Field>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={fieldId('club')}
          label="Current Club/School"
          error={errors.club?.message}
          hint="Pick an existing club or type a new one."
        >
          {(control) => (
            <ClubCombobox
              control={control}
              sport={sport ?? ''}
              value={club ?? ''}
              inputProps={register('club')}
              onPick={(name) => setValue('club', name, { shouldDirty: true, shouldValidate: true })}
            />
          )}
        </Field>
        <Field id={fieldId('sport')} label="Sport" error={errors.sport?.message}>
          {(control) => (
            <NativeSelect {...control} {...register('sport')}>
              <option value="" disabled>
                Select a sport
              </option>
              {SPORTS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>

      <Field id={fieldId('skills')} label={text.skillsLabel} error={errors.skills?.message}>
        {(control) => (
          <Textarea
            rows={4}
            placeholder="Strengths, style of play, achievements..."
            {...control}
            {...register('skills')}
          />
        )}
      </Field>

      <Field
        id={fieldId('videoLink')}
        label="Highlight Video Link (optional)"
        error={errors.videoLink?.message}
      >
        {(control) => (
          <Input
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://"
            {...control}
            {...register('videoLink')}
          />
        )}
      </Field>

      <DialogFooter className="mt-2">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" loading={isSubmitting}>
          {isSubmitting ? text.pending : text.submit}
        </Button>
      </DialogFooter>
    </form>
  );
}
