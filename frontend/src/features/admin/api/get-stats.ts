import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { adminKeys } from './admin-keys';

/** GET /api/admin/stats: the six numbers of the stat cards, also the tab counts. */
export const adminStatsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.stats(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/admin/stats', { signal })),
  });

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
