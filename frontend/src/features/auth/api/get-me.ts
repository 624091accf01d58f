import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';

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

/**
 * The session read. One that failed (no network: a page opened offline from the service
 * worker's shell) is read again as soon as the browser is back online.
 */
export function useMe() {
  const query = useQuery(meQueryOptions());
  const { isError, refetch } = query;
  useEffect(() => {
    if (!isError) return undefined;
    const again = () => void refetch();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [isError, refetch]);
  return query;
}
