import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { api, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';

import type { TakedownConfirmInput, TakedownInput } from './types';

/** A player's page address (…/nominations/12) or its number. */
export function nominationIdOf(text: string): number | null {
  const match = /(?:nominations\/)?(\d+)\/?\s*$/.exec(text.trim());
  return match ? Number(match[1]) : null;
}

export const takedownFormSchema = z.object({
  page: z
    .string()
    .refine((value) => nominationIdOf(value) !== null, 'Paste the address of the player page'),
  relationship: z.enum(['athlete', 'parent_or_guardian'], { error: 'Tell us who you are' }),
  kind: z.enum(['remove', 'correct']),
  contactEmail: z
    .string()
    .trim()
    .max(254, tooLong('Contact email', 254))
    .pipe(z.email('Invalid email address')),
  details: z.string().refine((value) => value.trim().length <= 4000, tooLong('Details', 4000)),
});

export type TakedownForm = z.infer<typeof takedownFormSchema>;

export function toTakedownInput(form: TakedownForm): TakedownInput {
  return {
    nominationId: nominationIdOf(form.page) ?? 0,
    relationship: form.relationship,
    kind: form.kind,
    contactEmail: form.contactEmail.trim(),
    details: form.details.trim() || undefined,
  };
}

/** POST /api/takedown-requests: no account needed (the client still sends the CSRF token). */
export function useTakedownRequest() {
  return useMutation({
    mutationFn: (input: TakedownInput) =>
      unwrap(api.POST('/api/takedown-requests', { body: input })),
  });
}

/** POST /api/takedown-requests/confirm: the token of the link in the request's email. */
export function useConfirmTakedown() {
  return useMutation({
    mutationFn: (input: TakedownConfirmInput) =>
      unwrap(api.POST('/api/takedown-requests/confirm', { body: input })),
  });
}
