import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import { authKeys } from './auth-keys';
import type { AuthUser } from './types';

/**
 * The signed-in user, or null when signed out: GET /api/auth/session answers 200 either way,
 * so a signed-out visit leaves no failed request in the console.
 */
export async function getMe({ signal }: { signal?: AbortSignal } = {}): Promise<AuthUser | null> {
  const { user } = await unwrap(api.GET('/api/auth/session', { signal }));
  return user ?? null;
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => getMe({ signal }),
  });

export function useMe() {
  return useQuery(meQueryOptions());
}
