import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { LIMITS } from '@/lib/api/limits';
import { api, unwrap } from '@/lib/api-client';
import { tooLong } from '@/lib/limits';

import type { TakedownConfirmInput, TakedownInput, TakedownStopInput } from './types';

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
    .max(
      LIMITS.TakedownIn.contactEmail.maxLength,
      tooLong('Contact email', LIMITS.TakedownIn.contactEmail.maxLength),
    )
    .pipe(z.email('Invalid email address')),
  details: z
    .string()
    .refine(
      (value) => value.trim().length <= LIMITS.TakedownIn.details.maxLength,
      tooLong('Details', LIMITS.TakedownIn.details.maxLength),
    ),
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

/** POST /api/takedown-requests/stop-emails: the token of a confirmation email's last link. */
export function useStopTakedownEmails() {
  return useMutation({
    mutationFn: (input: TakedownStopInput) =>
      unwrap(api.POST('/api/takedown-requests/stop-emails', { body: input })),
  });
}

/** GET /api/nominations/{id}/under-review: members see a page waiting for a takedown review. */
export function useUnderReview(nominationId: number) {
  return useQuery({
    queryKey: ['safety', 'under-review', nominationId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/nominations/{nomination_id}/under-review', {
          params: { path: { nomination_id: nominationId } },
          signal,
        }),
      ),
  });
}

/** The player page a sign-in was asked for (`/nominations/12`), or null. */
export function playerPageOf(path: string): number | null {
  const match = /^\/nominations\/(\d+)\/?(?:[?#].*)?$/.exec(path);
  return match ? Number(match[1]) : null;
}
