import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { fieldErrorId } from '@/components/ui/field-error-id';
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

  const controlProps = (id: string, invalid: boolean) => ({
    id,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? fieldErrorId(id) : undefined,
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Field id="register-username" label="Username" error={errors.username?.message}>
        <Input
          autoComplete="username"
          autoCapitalize="none"
          {...controlProps('register-username', Boolean(errors.username))}
          {...register('username')}
        />
      </Field>
      <Field id="register-name" label="Full name" error={errors.name?.message}>
        <Input
          autoComplete="name"
          {...controlProps('register-name', Boolean(errors.name))}
          {...register('name')}
        />
      </Field>
      <Field id="register-email" label="Email" error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="email"
          {...controlProps('register-email', Boolean(errors.email))}
          {...register('email')}
        />
      </Field>
      <Field id="register-password" label="Password" error={errors.password?.message}>
        <Input
          type="password"
          autoComplete="new-password"
          {...controlProps('register-password', Boolean(errors.password))}
          {...register('password')}
        />
      </Field>
      <Field id="register-sport" label="Favorite sport" error={errors.favoriteSport?.message}>
        <NativeSelect
          {...controlProps('register-sport', Boolean(errors.favoriteSport))}
          {...register('favoriteSport')}
        >
          {SPORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field
        id="register-referral"
        label="Referral code (optional)"
        error={errors.referralCode?.message}
      >
        <Input
          autoComplete="off"
          {...controlProps('register-referral', Boolean(errors.referralCode))}
          {...register('referralCode')}
        />
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
