import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { ChoiceFieldset } from '@/components/ui/choice-fieldset';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import {
  takedownFormSchema,
  toTakedownInput,
  useTakedownRequest,
  type TakedownForm,
} from '../api/takedown';

const RELATIONSHIPS = [
  { value: 'athlete', label: 'I am the athlete' },
  { value: 'parent_or_guardian', label: 'I am a parent or guardian of the athlete' },
] as const;

const KINDS = [
  { value: 'remove', label: 'Remove the profile' },
  { value: 'correct', label: 'Correct the profile' },
] as const;

/**
 * The public takedown request: no account needed. Nothing changes until the request is
 * confirmed from the link we email; confirming takes the profile off the site at once, until
 * our moderators decide.
 */
export function TakedownRequestForm({ nominationId }: { nominationId: number | null }) {
  const takedown = useTakedownRequest();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<TakedownForm>({
    resolver: zodResolver(takedownFormSchema),
    defaultValues: {
      page: nominationId ? `${window.location.origin}/nominations/${nominationId}` : '',
      kind: 'remove',
      contactEmail: '',
      details: '',
    },
  });

  const onSubmit = handleSubmit((form) =>
    takedown.mutate(toTakedownInput(form), {
      onSuccess: () =>
        toast({
          title: 'Check your email',
          description: 'Open the link we sent you to confirm your request.',
        }),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 404) {
          setError('page', { type: 'server', message: 'We could not find this player page' });
        }
        const email = error instanceof ApiError ? error.fields?.contactEmail : undefined;
        if (email) setError('contactEmail', { type: 'server', message: email });
        toast({
          variant: 'destructive',
          title: 'Error',
          description: errorMessage(error, 'Failed to send your request. Please try again.'),
        });
      },
    }),
  );

  if (takedown.data) {
    return (
      <TakedownReceived
        reference={takedown.data.reference}
        email={takedown.variables.contactEmail}
      />
    );
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-5 rounded-xl border border-border bg-surface p-6"
    >
      <Field
        id="takedown-page"
        label="Which player? (the address of the player page)"
        error={errors.page?.message}
      >
        {(control) => (
          <Input placeholder="https://…/nominations/12" {...control} {...register('page')} />
        )}
      </Field>
      <Controller
        control={control}
        name="relationship"
        render={({ field }) => (
          <ChoiceFieldset
            legend="Who are you?"
            name={field.name}
            choices={RELATIONSHIPS}
            value={field.value ?? null}
            onChange={field.onChange}
            error={errors.relationship?.message}
            inputRef={field.ref}
          />
        )}
      />
      <Controller
        control={control}
        name="kind"
        render={({ field }) => (
          <ChoiceFieldset
            legend="What should we do?"
            name={field.name}
            choices={KINDS}
            value={field.value}
            onChange={field.onChange}
            inputRef={field.ref}
          />
        )}
      />
      <Field id="takedown-email" label="Your email address" error={errors.contactEmail?.message}>
        {(control) => (
          <Input type="email" autoComplete="email" {...control} {...register('contactEmail')} />
        )}
      </Field>
      <Field
        id="takedown-details"
        label="What should change? (optional)"
        error={errors.details?.message}
      >
        {(control) => <Textarea rows={4} {...control} {...register('details')} />}
      </Field>
      <Button type="submit" size="lg" loading={takedown.isPending}>
        Send request
      </Button>
    </form>
  );
}

/**
 * The request received, with its reference. It takes the form's place, where the reader had
 * scrolled to the send button: it scrolls itself into view below the sticky header
 * (scroll-margin) and takes the focus, so it is seen and read whole.
 */
function TakedownReceived({ reference, email }: { reference: string; email: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    ref.current?.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div
      ref={ref}
      role="status"
      tabIndex={-1}
      className="scroll-mt-24 rounded-xl border border-border bg-surface p-6 outline-none"
    >
      <MailCheck className="size-8 text-success" aria-hidden="true" />
      <h2 className="mt-3 text-lg font-semibold">Confirm your request from your email</h2>
      <p className="mt-2 text-sm">
        Your reference is <strong>{reference}</strong>. We have sent a link to{' '}
        <strong>{email}</strong>: open it within 24 hours to confirm your request. The profile is
        hidden from the site as soon as you confirm, while our moderators review your request.
      </p>
    </div>
  );
}
