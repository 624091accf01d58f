import { useEffect } from 'react';

import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

/** A destructive toast each time a read fails: the server's message, else `fallback`. */
export function useErrorToast(error: unknown, fallback: string) {
  useEffect(() => {
    if (error) toast({ variant: 'destructive', description: errorMessage(error, fallback) });
  }, [error, fallback]);
}
