import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { LIMITS } from '@/lib/api/limits';
import { api, errorMessage, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { toast } from '@/stores/toast';

import { settingsKeys } from './keys';

export const PASSWORD_MIN_LENGTH = LIMITS.PasswordChangeIn.newPassword.minLength;

/**
 * The current password is sent as typed and checked by the server only. The new one is checked
 * here in a fixed order, one message at a time: first that it was confirmed, then its length.
 */
export const changePasswordInputSchema = z
  .object({
    currentPassword: z
      .string()
      .max(
        LIMITS.PasswordChangeIn.currentPassword.maxLength,
        tooLong('Current password', LIMITS.PasswordChangeIn.currentPassword.maxLength),
      ),
    newPassword: z
      .string()
      .max(
        LIMITS.PasswordChangeIn.newPassword.maxLength,
        tooLong('New password', LIMITS.PasswordChangeIn.newPassword.maxLength),
      ),
    confirmPassword: z.string(),
  })
  .superRefine(({ newPassword, confirmPassword }, context) => {
    if (newPassword !== confirmPassword) {
      context.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: 'New passwords do not match',
      });
    } else if (newPassword.length < PASSWORD_MIN_LENGTH) {
      context.addIssue({
        code: 'custom',
        path: ['newPassword'],
        message: 'Password must be at least 6 characters',
      });
    }
  });

export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

export function changePassword({ currentPassword, newPassword }: ChangePasswordInput) {
  return unwrap(api.PUT('/api/settings/password', { body: { currentPassword, newPassword } }));
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKeys.me(), settings);
      toast({
        title: 'Password Updated',
        description: 'Your password has been successfully changed.',
      });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'Failed to update password'),
      });
    },
  });
}
