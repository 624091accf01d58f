import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { APP_NAME } from '@/lib/site';
import { SPORTS, useSport } from '@/stores/sport';
import { toast } from '@/stores/toast';

import {
  registerInputSchema,
  UNDER_MINIMUM_AGE,
  useRegister,
  type RegisterInput,
} from '../api/register';

import { AccountFormEnd, PasswordField, UsernameField } from './account-fields';
import { reportFailure } from './apply-field-errors';
import { BirthYearField } from './birth-year-field';

const SERVER_FIELDS = [
  'username',
  'name',
  'email',
  'password',
  'favoriteSport',
  'birthYear',
] as const;

type RegisterFormProps = {
  returnTo: string;
  onSuccess: () => void;
  /** A referral link's code (/register?ref=CODE), filled in for the visitor. */
  referralCode?: string;
};

export function RegisterForm({ returnTo, onSuccess, referralCode = '' }: RegisterFormProps) {
  const { sport, setSport } = useSport();
  const registration = useRegister();
  // The server's refusal under 13: the form gives way to it, so the year is not tried again
  // in the same form.
  const [refusal, setRefusal] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RegisterInput>({
    resolver: zodResolver(registerInputSchema),
    defaultValues: {
      username: '',
      name: '',
      email: '',
      password: '',
      favoriteSport: sport,
      birthYear: '',
      referralCode,
    },
  });

  const onSubmit = handleSubmit((values) =>
    registration.mutate(values, {
      onSuccess: (user) => {
        setSport(values.favoriteSport);
        // Worded exactly as the product specification gives it (docs/specification.md §5).
        toast({ title: `Welcome to ${APP_NAME}, ${user.name}!` });
        onSuccess();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === UNDER_MINIMUM_AGE) {
          setRefusal(error.message);
          return;
        }
        reportFailure(error, SERVER_FIELDS, setError, {
          title: 'Registration failed',
          fallback: 'Could not create account',
        });
      },
    }),
  );

  if (refusal) {
    return (
      <p role="alert" className="text-sm">
        {refusal}
      </p>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <UsernameField
        id="register-username"
        error={errors.username?.message}
        registration={register('username')}
      />
      <Field id="register-name" label="Full name" error={errors.name?.message}>
        {(control) => <Input autoComplete="name" {...control} {...register('name')} />}
      </Field>
      <Field id="register-email" label="Email" error={errors.email?.message}>
        {(control) => (
          <Input type="email" autoComplete="email" {...control} {...register('email')} />
        )}
      </Field>
      <PasswordField
        id="register-password"
        error={errors.password?.message}
        registration={register('password')}
        autoComplete="new-password"
      />
      <Field id="register-sport" label="Favorite sport" error={errors.favoriteSport?.message}>
        {(control) => (
          <NativeSelect {...control} {...register('favoriteSport')}>
            {SPORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <BirthYearField
        id="register-birth-year"
        error={errors.birthYear?.message}
        registration={register('birthYear')}
      />
      <Field
        id="register-referral"
        label="Referral code (optional)"
        error={errors.referralCode?.message}
      >
        {(control) => <Input autoComplete="off" {...control} {...register('referralCode')} />}
      </Field>
      <AccountFormEnd
        submitLabel="Create account"
        pending={registration.isPending}
        prompt="Already have an account?"
        otherForm="/login"
        otherLabel="Sign in"
        returnTo={returnTo}
      />
    </form>
  );
}
