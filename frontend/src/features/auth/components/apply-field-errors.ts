import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

import { ApiError, errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

/**
 * Shows the server's per-field validation messages on the matching form fields; whether it
 * showed any.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  fieldNames: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError) || !error.fields) return false;
  let shown = false;
  for (const [field, message] of Object.entries(error.fields)) {
    if ((fieldNames as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message });
      shown = true;
    }
  }
  return shown;
}

/**
 * A failed account form, said once: the server's field messages on their fields when it gave
 * any for this form, else a toast with its message (or `fallback` when the server gave none).
 */
export function reportFailure<T extends FieldValues>(
  error: unknown,
  fieldNames: readonly Path<T>[],
  setError: UseFormSetError<T>,
  { title, fallback }: { title: string; fallback: string },
) {
  if (applyFieldErrors(error, fieldNames, setError)) return;
  toast({ variant: 'destructive', title, description: errorMessage(error, fallback) });
}
