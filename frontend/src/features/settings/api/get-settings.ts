import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { settingsKeys } from './keys';

export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.me(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/settings', { signal })),
  });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
