import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError, unwrap } from '@/lib/api-client';

import { authKeys } from './auth-keys';
import type { AuthUser } from './types';

/** The signed-in user, or null when signed out (the server answers 401). */
export async function getMe({ signal }: { signal?: AbortSignal } = {}): Promise<AuthUser | null> {
  try {
    return await unwrap(api.GET('/api/auth/me', { signal }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => getMe({ signal }),
  });

export function useMe() {
  return useQuery(meQueryOptions());
}
