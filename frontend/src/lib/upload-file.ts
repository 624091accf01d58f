import { api, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

/**
 * An image sent to storage through the upload pipeline (an avatar, a player update's picture):
 * checked in the browser first, then a signed form from POST /api/objects/upload, then the
 * file itself straight to storage. The server checks and re-encodes it when it is confirmed.
 */
export type UploadTicket = components['schemas']['UploadOut'];

export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const IMAGE_MAX_BYTES = 5_242_880;

export const NOT_AN_IMAGE = 'Please choose an image file (PNG, JPEG, GIF or WebP)';
export const IMAGE_TOO_LARGE = 'The image must be at most 5 MB';
export const UPLOAD_ADDRESS_FAILED = 'Failed to get upload URL';
const UPLOAD_FAILED = 'Failed to update profile picture';

/** Why a chosen file cannot be uploaded as an image, checked before anything is sent; or null. */
export function imageFileProblem(file: File): string | null {
  if (!IMAGE_CONTENT_TYPES.includes(file.type)) return NOT_AN_IMAGE;
  if (file.size > IMAGE_MAX_BYTES) return IMAGE_TOO_LARGE;
  return null;
}

/** A failure of one step of the upload, with the message to show for it. */
export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

export function requestUploadTicket(contentType: string): Promise<UploadTicket> {
  return unwrap(api.POST('/api/objects/upload', { body: { contentType } }));
}

function storageErrorMessage(xhr: XMLHttpRequest, failed: string): string {
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
  return xhr.status === 403 ? 'Request has expired' : failed;
}

/**
 * Sends the file itself to storage with one form POST (S3's presigned POST, or this server's
 * local equivalent): the returned fields, then the file, last. It goes to storage, not to the
 * API: no cookies and no CSRF token; the storage refuses a file over 5 MB by itself. `failed` is
 * the message of a failure the storage does not explain.
 */
export function postFile(
  { uploadURL, fields }: Pick<UploadTicket, 'uploadURL' | 'fields'>,
  file: File,
  onProgress: (fraction: number) => void,
  failed: string = UPLOAD_FAILED,
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
      else reject(new UploadError(storageErrorMessage(xhr, failed)));
    };
    xhr.onerror = () => reject(new UploadError(failed));
    xhr.ontimeout = () => reject(new UploadError('Request has expired'));
    xhr.send(form);
  });
}
