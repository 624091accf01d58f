import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { settingsKeys } from './keys';
import type { Settings } from './types';

export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.me(),
    queryFn: ({ signal }) => api.get<Settings>('/api/settings', { signal }),
  });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
