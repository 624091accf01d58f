import { useMutation } from '@tanstack/react-query';

import { api, ApiError, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import type { ReportInput } from './types';

export function createReport(input: ReportInput) {
  return unwrap(api.POST('/api/reports', { body: input }));
}

/** POST /api/reports: once per member and item (409 says so, and counts as done). */
export function useReport() {
  return useMutation({
    mutationFn: createReport,
    onSuccess: () =>
      toast({
        title: 'Report sent',
        description: 'Thank you. Our moderators will review it.',
      }),
    onError: (error) => {
      const already = error instanceof ApiError && error.status === 409;
      toast({
        variant: already ? 'default' : 'destructive',
        title: already ? 'Already reported' : 'Error',
        description: errorMessage(error, 'Failed to send the report. Please try again.'),
      });
    },
  });
}
