import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { loginInputSchema, TWO_FACTOR_REQUIRED, useLogin, type LoginInput } from '../api/login';

import { AccountFormEnd, PasswordField, UsernameField } from './account-fields';
import { reportFailure } from './apply-field-errors';

type LoginFormProps = {
  returnTo: string;
  onSuccess: () => void;
};

export function LoginForm({ returnTo, onSuccess }: LoginFormProps) {
  const login = useLogin();
  // Shown once the server answered that this account signs in with a second factor.
  const [askCode, setAskCode] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<LoginInput>({
    resolver: zodResolver(loginInputSchema),
    defaultValues: { username: '', password: '', code: '' },
  });

  // Once the code's field shows, the member types the code next.
  useEffect(() => {
    if (askCode) setFocus('code');
  }, [askCode, setFocus]);

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: (user) => {
        toast({ title: `Welcome back, ${user.name}!` });
        onSuccess();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === TWO_FACTOR_REQUIRED && !values.code) {
          setAskCode(true);
          return;
        }
        reportFailure(error, ['username', 'password', 'code'], setError, {
          title: 'Login failed',
          fallback: 'Invalid username or password',
        });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <UsernameField
        id="login-username"
        error={errors.username?.message}
        registration={register('username')}
      />
      <PasswordField
        id="login-password"
        error={errors.password?.message}
        registration={register('password')}
        autoComplete="current-password"
      />
      {askCode ? (
        <Field
          id="login-code"
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          error={errors.code?.message}
        >
          {(control) => (
            <Input
              autoComplete="one-time-code"
              autoCapitalize="none"
              inputMode="text"
              {...control}
              {...register('code')}
            />
          )}
        </Field>
      ) : null}
      <AccountFormEnd
        submitLabel="Sign in"
        pending={login.isPending}
        prompt="Don't have an account?"
        otherForm="/register"
        otherLabel="Create one"
        returnTo={returnTo}
      />
    </form>
  );
}
