import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError, unwrap } from '@/lib/api-client';

import { profileKeys } from './keys';
import type { Profile } from './types';

/** The signed-in user's profile, or null when signed out (the server answers 401). */
export async function getProfile({
  signal,
}: { signal?: AbortSignal } = {}): Promise<Profile | null> {
  try {
    return await unwrap(api.GET('/api/profile', { signal }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: profileKeys.me(),
    queryFn: ({ signal }) => getProfile({ signal }),
  });

/** Asked only while signed in (`enabled`): signed out, there is no profile to ask for. */
export function useProfile({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...profileQueryOptions(), enabled });
}
