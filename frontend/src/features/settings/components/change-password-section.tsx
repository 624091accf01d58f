import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

import {
  changePasswordInputSchema,
  useChangePassword,
  type ChangePasswordInput,
} from '../api/change-password';

import { SettingsSection } from './settings-section';

const EMPTY: ChangePasswordInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordSection() {
  const changePassword = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInputSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit((values) =>
    changePassword.mutate(values, { onSuccess: () => reset(EMPTY) }),
  );

  return (
    <SettingsSection
      id="password"
      icon={KeyRound}
      title="Change Password"
      description="Other devices signed in to your account are signed out when it changes."
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <Field
          id="current-password"
          label="Current Password"
          error={errors.currentPassword?.message}
        >
          {(control) => (
            <Input
              type="password"
              autoComplete="current-password"
              {...control}
              {...register('currentPassword')}
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="new-password" label="New Password" error={errors.newPassword?.message}>
            {(control) => (
              <Input
                type="password"
                autoComplete="new-password"
                {...control}
                {...register('newPassword')}
              />
            )}
          </Field>
          <Field
            id="confirm-password"
            label="Confirm New Password"
            error={errors.confirmPassword?.message}
          >
            {(control) => (
              <Input
                type="password"
                autoComplete="new-password"
                {...control}
                {...register('confirmPassword')}
              />
            )}
          </Field>
        </div>
        <div className="flex justify-end">
          <Button type="submit" loading={changePassword.isPending} className="w-full sm:w-auto">
            {changePassword.isPending ? 'Updating...' : 'Update Password'}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
