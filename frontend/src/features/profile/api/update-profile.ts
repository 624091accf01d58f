import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { LIMITS } from '@/lib/api/limits';
import { api, errorMessage, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';
import { toast } from '@/stores/toast';

import { profileKeys } from './keys';
import type { Profile } from './types';

/** The sports the profile form offers (more than the five the site filters by). */
export const PROFILE_SPORTS = [
  'football',
  'basketball',
  'baseball',
  'soccer',
  'hockey',
  'volleyball',
  'tennis',
  'other',
] as const;

// Profile fields have no rules of their own beyond the server's limits: otherwise only the
// generic messages can appear.
const text = (label: string, limit: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Invalid input') })
    .refine((value) => value.trim().length <= limit, tooLong(label, limit));

const limits = LIMITS.ProfileIn;

export const profileInputSchema = z.object({
  name: text('Name', limits.name.maxLength),
  bio: text('Bio', limits.bio.maxLength),
  location: text('Location', limits.location.maxLength),
  phoneNumber: text('Phone number', limits.phoneNumber.maxLength),
  favoriteSport: z.union([z.enum(PROFILE_SPORTS), z.literal('')], { error: 'Invalid input' }),
});

export type ProfileInput = z.infer<typeof profileInputSchema>;

export function updateProfile(input: ProfileInput): Promise<Profile> {
  return unwrap(api.PUT('/api/profile', { body: input }));
}

/**
 * Saves the profile form; the answer is the new profile. `onSaved` runs once it is cached, for what else shows
 * the user (the session's name in the header).
 */
export function useUpdateProfile({ onSaved }: { onSaved?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileKeys.me(), profile);
      onSaved?.();
      toast({ title: 'Profile updated successfully' });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        description: errorMessage(error, 'Failed to update profile'),
      });
    },
  });
}
