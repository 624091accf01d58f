import { useMutation } from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

/** Saves the member's time zone (an IANA name the server knows, or '' for the board's). */
export function useSetTimeZone(onSaved?: () => void) {
  return useMutation({
    mutationFn: (timeZone: string) =>
      unwrap(api.PUT('/api/settings/time-zone', { body: { timeZone } })),
    onSuccess: () => {
      toast({ title: 'Time zone saved', description: 'Times follow your time zone now.' });
      onSaved?.();
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to save your time zone. Please try again.'),
      }),
  });
}
