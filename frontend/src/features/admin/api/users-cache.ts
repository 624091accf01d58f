import type { InfiniteData } from '@tanstack/react-query';

import type { Page } from '@/lib/api-client';

import type { AdminUser } from './types';

export type UserPages = InfiniteData<Page<AdminUser>>;

/** Applies `change` to every cached user: return a user to keep it, null to drop it. */
export function mapUsers(
  data: UserPages | undefined,
  change: (user: AdminUser) => AdminUser | null,
): UserPages | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.flatMap((user) => {
        const changed = change(user);
        return changed ? [changed] : [];
      }),
    })),
  };
}
