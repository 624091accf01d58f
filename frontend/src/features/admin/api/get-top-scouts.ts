import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminKeys } from './admin-keys';
import type { AdminScout } from './types';

/**
 * GET /api/admin/leaderboard: the top 10 users by points. Points move with every vote in every
 * sport and no admin event carries them, so the tab reads them again each time it opens.
 */
export const topScoutsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.topScouts(),
    queryFn: ({ signal }) => api.get<AdminScout[]>('/api/admin/leaderboard', { signal }),
    staleTime: 0,
  });

export function useAdminTopScouts() {
  return useQuery(topScoutsQueryOptions());
}
