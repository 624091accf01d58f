import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import { profileKeys } from './keys';
import type { AvatarUpdate, Profile, UploadTicket } from './types';

export const AVATAR_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const AVATAR_MAX_BYTES = 5_242_880;

export const NOT_AN_IMAGE = 'Please choose an image file (PNG, JPEG, GIF or WebP)';
export const IMAGE_TOO_LARGE = 'The image must be at most 5 MB';
const UPLOAD_ADDRESS_FAILED = 'Failed to get upload URL';
const AVATAR_UPDATE_FAILED = 'Failed to update profile picture';

/** Why a chosen file cannot be a profile picture, checked before anything is sent; or null. */
export function avatarFileProblem(file: File): string | null {
  if (!AVATAR_CONTENT_TYPES.includes(file.type)) return NOT_AN_IMAGE;
  if (file.size > AVATAR_MAX_BYTES) return IMAGE_TOO_LARGE;
  return null;
}

/** A failure of one step of the upload, with the message to show for it. */
export class AvatarUploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AvatarUploadError';
  }
}

export function requestUploadTicket(contentType: string): Promise<UploadTicket> {
  return unwrap(api.POST('/api/objects/upload', { body: { contentType } }));
}

function storageErrorMessage(xhr: XMLHttpRequest): string {
  try {
    const body: unknown = JSON.parse(xhr.responseText);
    if (typeof body === 'object' && body !== null && 'message' in body) {
      const { message } = body as { message: unknown };
      if (typeof message === 'string' && message) return message;
    }
  } catch {
    // Not the JSON error body (S3 answers XML): fall back to what the status says.
  }
  // The bucket's own refusal of a file over the policy's content-length-range.
  if (xhr.responseText.includes('<Code>EntityTooLarge</Code>')) return IMAGE_TOO_LARGE;
  return xhr.status === 403 ? 'Request has expired' : AVATAR_UPDATE_FAILED;
}

/**
 * Sends the file itself to storage with one form POST (S3's presigned POST, or this server's
 * local equivalent): the returned fields, then the file, last. It goes to storage, not to the
 * API: no cookies and no CSRF token; the storage refuses a file over 5 MB by itself.
 */
export function postFile(
  { uploadURL, fields }: Pick<UploadTicket, 'uploadURL' | 'fields'>,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', uploadURL);
    xhr.withCredentials = false;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new AvatarUploadError(storageErrorMessage(xhr)));
    };
    xhr.onerror = () => reject(new AvatarUploadError(AVATAR_UPDATE_FAILED));
    xhr.ontimeout = () => reject(new AvatarUploadError('Request has expired'));
    xhr.send(form);
  });
}

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
        throw new AvatarUploadError(UPLOAD_ADDRESS_FAILED);
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
          error instanceof AvatarUploadError
            ? error.message
            : errorMessage(error, AVATAR_UPDATE_FAILED),
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
