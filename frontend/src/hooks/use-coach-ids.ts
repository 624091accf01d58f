import { useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { coachIdsKey } from '@/lib/query-keys';

/** Every verified coach's id (GET /api/coaches), read once and shared by every name shown. */
export function useCoachIds(enabled = true) {
  return useQuery({
    queryKey: coachIdsKey(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/coaches', { signal })),
    select: (data) => new Set(data.ids),
    staleTime: 60_000,
    enabled,
  });
}
