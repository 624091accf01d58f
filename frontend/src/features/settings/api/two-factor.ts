import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { LIMITS } from '@/lib/api/limits';
import { api, errorMessage, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { toast } from '@/stores/toast';

import { settingsKeys } from './keys';

const { code } = LIMITS.TwoFactorCodeIn;

export const twoFactorCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(code.minLength, 'Code is required')
    .max(code.maxLength, tooLong('Code', code.maxLength)),
});

export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeSchema>;

export const twoFactorDisableSchema = twoFactorCodeSchema.extend({
  currentPassword: z.string().min(1, 'Current password is required'),
});

export type TwoFactorDisableInput = z.infer<typeof twoFactorDisableSchema>;

export const twoFactorQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.twoFactor(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/auth/2fa', { signal })),
  });

export function useTwoFactor() {
  return useQuery(twoFactorQueryOptions());
}

function useTwoFactorChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: settingsKeys.twoFactor() });
    void queryClient.invalidateQueries({ queryKey: settingsKeys.me() });
  };
}

function failed(error: Error) {
  toast({ variant: 'destructive', description: errorMessage(error, 'Something went wrong') });
}

export function useTwoFactorSetup() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/2fa/setup')),
    onError: failed,
  });
}

export function useTwoFactorConfirm() {
  const changed = useTwoFactorChanged();
  return useMutation({
    mutationFn: (body: TwoFactorCodeInput) => unwrap(api.POST('/api/auth/2fa/confirm', { body })),
    onSuccess: () => {
      changed();
      toast({ title: 'Two-factor sign-in is on' });
    },
  });
}

export function useRecoveryCodesRenew() {
  const changed = useTwoFactorChanged();
  return useMutation({
    mutationFn: (body: TwoFactorCodeInput) =>
      unwrap(api.POST('/api/auth/2fa/recovery-codes', { body })),
    onSuccess: changed,
  });
}

export function useTwoFactorDisable() {
  const changed = useTwoFactorChanged();
  return useMutation({
    mutationFn: (body: TwoFactorDisableInput) =>
      unwrap(api.POST('/api/auth/2fa/disable', { body })),
    onSuccess: () => {
      changed();
      toast({ title: 'Two-factor sign-in is off' });
    },
  });
}
