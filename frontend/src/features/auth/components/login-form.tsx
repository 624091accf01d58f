import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { loginInputSchema, TWO_FACTOR_REQUIRED, useLogin, type LoginInput } from '../api/login';
import { withReturnTo } from '../hooks/use-return-to';

import { applyFieldErrors } from './apply-field-errors';

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
        applyFieldErrors(error, ['username', 'password', 'code'], setError);
        toast({
          variant: 'destructive',
          title: 'Login failed',
          description: errorMessage(error, 'Invalid username or password'),
        });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Field id="login-username" label="Username" error={errors.username?.message}>
        {(control) => (
          <Input
            autoComplete="username"
            autoCapitalize="none"
            {...control}
            {...register('username')}
          />
        )}
      </Field>
      <Field id="login-password" label="Password" error={errors.password?.message}>
        {(control) => (
          <Input
            type="password"
            autoComplete="current-password"
            {...control}
            {...register('password')}
          />
        )}
      </Field>
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
      <Button type="submit" size="lg" loading={login.isPending} className="mt-2 w-full">
        Sign in
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Don&apos;t have an account?{' '}
        <Link
          to={withReturnTo('/register', returnTo)}
          className="font-semibold text-primary hover:underline"
        >
          Create one
        </Link>
      </p>
    </form>
  );
}
