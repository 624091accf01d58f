import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { adminKeys } from './admin-keys';

/**
 * GET /api/admin/leaderboard: the top 10 users by points. Points move with every vote in every
 * sport and no admin event carries them, so the tab reads them again each time it opens.
 */
export const topScoutsQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.topScouts(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/admin/leaderboard', { signal })),
    staleTime: 0,
  });

export function useAdminTopScouts() {
  return useQuery(topScoutsQueryOptions());
}
