import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { loginInputSchema, useLogin, type LoginInput } from '../api/login';
import { withReturnTo } from '../hooks/use-return-to';

import { applyFieldErrors } from './apply-field-errors';

type LoginFormProps = {
  returnTo: string;
  onSuccess: () => void;
};

export function LoginForm({ returnTo, onSuccess }: LoginFormProps) {
  const login = useLogin();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LoginInput>({
    resolver: zodResolver(loginInputSchema),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: (user) => {
        toast({ title: `Welcome back, ${user.name}!` });
        onSuccess();
      },
      onError: (error) => {
        applyFieldErrors(error, ['username', 'password'], setError);
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
