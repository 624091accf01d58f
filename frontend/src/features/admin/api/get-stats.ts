import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminKeys } from './admin-keys';
import type { AdminStats } from './types';

/** GET /api/admin/stats: the six numbers of the stat cards, also the tab counts. */
export const adminStatsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.stats(),
    queryFn: ({ signal }) => api.get<AdminStats>('/api/admin/stats', { signal }),
  });

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
