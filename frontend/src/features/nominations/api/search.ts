import { z } from 'zod';

import { QUERY_LIMITS } from '@/lib/api/limits';
import { tooLong } from '@/lib/limits';

/** The server's limit of `q` on GET /api/nominations. */
export const SEARCH_MAX_LENGTH = QUERY_LIMITS['GET /api/nominations'].q.maxLength;

/** The search box's text as it is sent: trimmed, and no longer than the server takes. */
export const nominationSearchSchema = z
  .string()
  .trim()
  .max(SEARCH_MAX_LENGTH, tooLong('Search', SEARCH_MAX_LENGTH));

/** The search to run for a typed text and, when it is too long, the message that says so (the
 * search then runs on the text's first SEARCH_MAX_LENGTH characters). */
export function checkSearch(text: string): { q: string; error: string | null } {
  const checked = nominationSearchSchema.safeParse(text);
  if (checked.success) return { q: checked.data, error: null };
  return {
    q: text.trim().slice(0, SEARCH_MAX_LENGTH).trim(),
    error: checked.error.issues[0]?.message ?? null,
  };
}
