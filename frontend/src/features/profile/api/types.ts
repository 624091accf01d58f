import type { components } from '@/lib/api/schema';

export type Profile = components['schemas']['ProfileOut'];
export type UploadTicket = components['schemas']['UploadOut'];
export type AvatarUpdate = components['schemas']['AvatarOut'];
