import type { QueryClient } from '@tanstack/react-query';

import { forgetOwnVotes } from '@/lib/live/vote-versions';

import { authKeys } from './auth-keys';
import type { AuthUser } from './types';

/**
 * Sets the current user after login, registration or logout. Everything else cached belonged to
 * the previous session (hasVoted, following, feed...) and is dropped.
 */
export function setSessionUser(queryClient: QueryClient, user: AuthUser | null) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.all[0] });
  forgetOwnVotes(queryClient);
  queryClient.setQueryData(authKeys.me(), user);
}
