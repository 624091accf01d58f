import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_MAX_BYTES,
  imageFileProblem,
  postFile,
  requestUploadTicket,
  UPLOAD_ADDRESS_FAILED,
  UploadError,
} from '@/lib/upload-file';
import { toast } from '@/stores/toast';

import { profileKeys } from './keys';
import type { AvatarUpdate, Profile, UploadTicket } from './types';

export { IMAGE_TOO_LARGE, NOT_AN_IMAGE, postFile } from '@/lib/upload-file';
export const AVATAR_CONTENT_TYPES = IMAGE_CONTENT_TYPES;
export const AVATAR_MAX_BYTES = IMAGE_MAX_BYTES;
export const avatarFileProblem = imageFileProblem;
const AVATAR_UPDATE_FAILED = 'Failed to update profile picture';

export function setAvatar(objectURL: string): Promise<AvatarUpdate> {
  return unwrap(api.PUT('/api/profile/avatar', { body: { avatarURL: objectURL } }));
}

/**
 * The whole avatar change: check the file, get an upload form, POST the file with it with
 * progress, then make it the profile picture. `onUpdated` runs after the profile is refreshed,
 * for what else shows the picture (the header's user menu).
 */
export function useAvatarUpload({ onUpdated }: { onUpdated?: () => void } = {}) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);

  const mutation = useMutation({
    mutationFn: async (file: File) => {
      let ticket: UploadTicket;
      try {
        ticket = await requestUploadTicket(file.type);
      } catch {
        throw new UploadError(UPLOAD_ADDRESS_FAILED);
      }
      setProgress(0);
      await postFile(ticket, file, setProgress);
      setProgress(1);
      return setAvatar(ticket.objectURL);
    },
    onSuccess: ({ avatarUrl }) => {
      queryClient.setQueryData<Profile | null>(profileKeys.me(), (profile) =>
        profile ? { ...profile, avatarUrl } : profile,
      );
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
      onUpdated?.();
      toast({ title: 'Profile picture updated successfully' });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        description:
          error instanceof UploadError ? error.message : errorMessage(error, AVATAR_UPDATE_FAILED),
      });
    },
    onSettled: () => setProgress(null),
  });

  /** Starts the upload; a file that fails the checks is refused with a toast. */
  const upload = (file: File): boolean => {
    const problem = avatarFileProblem(file);
    if (problem) {
      toast({ variant: 'destructive', description: problem });
      return false;
    }
    mutation.mutate(file);
    return true;
  };

  return { upload, progress, isUploading: mutation.isPending };
}
