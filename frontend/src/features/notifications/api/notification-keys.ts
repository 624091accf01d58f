import { queryRoots } from '@/lib/query-keys';

export const notificationKeys = {
  all: queryRoots.notifications,
  list: () => [...notificationKeys.all, 'list'] as const,
};
