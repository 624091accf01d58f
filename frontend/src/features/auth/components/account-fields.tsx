import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

import { withReturnTo } from '../hooks/use-return-to';

type AccountFieldProps = {
  /** The element id; the label and error point at it. */
  id: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
};

/** The username field of the sign-in and registration forms. */
export function UsernameField({ id, error, registration }: AccountFieldProps) {
  return (
    <Field id={id} label="Username" error={error}>
      {(control) => (
        <Input autoComplete="username" autoCapitalize="none" {...control} {...registration} />
      )}
    </Field>
  );
}

/** The password field: the browser offers the saved password to sign in, a new one to register. */
export function PasswordField({
  id,
  error,
  registration,
  autoComplete,
}: AccountFieldProps & { autoComplete: 'current-password' | 'new-password' }) {
  return (
    <Field id={id} label="Password" error={error}>
      {(control) => (
        <Input type="password" autoComplete={autoComplete} {...control} {...registration} />
      )}
    </Field>
  );
}

type AccountFormEndProps = {
  submitLabel: string;
  pending: boolean;
  /** The question before the link to the other form, e.g. "Already have an account?". */
  prompt: ReactNode;
  /** The other form's route; the page to return to travels with it. */
  otherForm: '/login' | '/register';
  otherLabel: string;
  returnTo: string;
};

/** The submit button and the link to the other account form, under both forms. */
export function AccountFormEnd({
  submitLabel,
  pending,
  prompt,
  otherForm,
  otherLabel,
  returnTo,
}: AccountFormEndProps) {
  return (
    <>
      <Button type="submit" size="lg" loading={pending} className="mt-2 w-full">
        {submitLabel}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        {prompt}{' '}
        <Link
          to={withReturnTo(otherForm, returnTo)}
          className="font-semibold text-primary hover:underline"
        >
          {otherLabel}
        </Link>
      </p>
    </>
  );
}
