import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { findCachedNomination } from './nomination-cache';
import { nominationKeys } from './nomination-keys';

/** GET /api/nominations/{id}: one nomination; 404 when missing or hidden from the caller. */
export const nominationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: nominationKeys.detail(id),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/nominations/{nomination_id}', {
          params: { path: { nomination_id: id } },
          signal,
        }),
      ),
  });

/** The nomination, shown at once from any list that already holds it while it loads. */
export function useNomination(id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    ...nominationQueryOptions(id),
    enabled: Number.isInteger(id) && id > 0,
    placeholderData: () => findCachedNomination(queryClient, id),
  });
}
