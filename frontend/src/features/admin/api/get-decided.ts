import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { adminKeys } from './admin-keys';
import type { AdminNomination, Decision } from './types';

/** The approved and rejected lists show the newest 50. */
export const DECIDED_LIMIT = 50;

/** GET /api/nominations?status=approved|rejected&limit=50 (the status filter is admin only). */
export const decidedQueryOptions = (status: Decision) =>
  queryOptions({
    queryKey: adminKeys.decided(status),
    queryFn: ({ signal }): Promise<AdminNomination[]> =>
      unwrap(
        api.GET('/api/nominations', {
          params: { query: { status, limit: DECIDED_LIMIT } },
          signal,
        }),
      ),
  });

export function useDecidedNominations(status: Decision) {
  return useQuery(decidedQueryOptions(status));
}
