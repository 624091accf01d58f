import { queryRoots } from '@/lib/query-keys';

/** The signed-in user's own profile (GET /api/profile). */
export const profileKeys = {
  all: queryRoots.profile,
  me: () => [...profileKeys.all, 'me'] as const,
};
