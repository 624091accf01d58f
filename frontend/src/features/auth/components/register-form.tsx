import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { APP_NAME } from '@/lib/site';
import { SPORTS, useSport } from '@/stores/sport';
import { toast } from '@/stores/toast';

import { registerInputSchema, useRegister, type RegisterInput } from '../api/register';
import { withReturnTo } from '../hooks/use-return-to';

import { applyFieldErrors } from './apply-field-errors';

const SERVER_FIELDS = ['username', 'name', 'email', 'password', 'favoriteSport'] as const;

type RegisterFormProps = {
  returnTo: string;
  onSuccess: () => void;
};

export function RegisterForm({ returnTo, onSuccess }: RegisterFormProps) {
  const { sport, setSport } = useSport();
  const registration = useRegister();
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
      referralCode: '',
    },
  });

  const onSubmit = handleSubmit((values) =>
    registration.mutate(values, {
      onSuccess: (user) => {
        setSport(values.favoriteSport);
        // Worded exactly as the product specification gives it.
        toast({ title: `Welcome to ${APP_NAME}, ${user.name}!` });
        onSuccess();
      },
      onError: (error) => {
        applyFieldErrors(error, SERVER_FIELDS, setError);
        toast({
          variant: 'destructive',
          title: 'Registration failed',
          description: errorMessage(error, 'Could not create account'),
        });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Field id="register-username" label="Username" error={errors.username?.message}>
        {(control) => (
          <Input
            autoComplete="username"
            autoCapitalize="none"
            {...control}
            {...register('username')}
          />
        )}
      </Field>
      <Field id="register-name" label="Full name" error={errors.name?.message}>
        {(control) => <Input autoComplete="name" {...control} {...register('name')} />}
      </Field>
      <Field id="register-email" label="Email" error={errors.email?.message}>
        {(control) => (
          <Input type="email" autoComplete="email" {...control} {...register('email')} />
        )}
      </Field>
      <Field id="register-password" label="Password" error={errors.password?.message}>
        {(control) => (
          <Input
            type="password"
            autoComplete="new-password"
            {...control}
            {...register('password')}
          />
        )}
      </Field>
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
      <Field
        id="register-referral"
        label="Referral code (optional)"
        error={errors.referralCode?.message}
      >
        {(control) => <Input autoComplete="off" {...control} {...register('referralCode')} />}
      </Field>
      <Button type="submit" size="lg" loading={registration.isPending} className="mt-2 w-full">
        Create account
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <Link
          to={withReturnTo('/login', returnTo)}
          className="font-semibold text-primary hover:underline"
        >
          Sign in
        </Link>
      </p>
    </form>
  );
}
