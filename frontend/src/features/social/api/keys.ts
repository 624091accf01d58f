import { followKeys, queryRoots } from '@/lib/query-keys';
import type { Sport } from '@/stores/sport';

export { followKeys };

export type FeedFilters = { sport: Sport; following: boolean };

/** The activity feed, per sport and "Following" filter. */
export const feedKeys = {
  all: queryRoots.feed,
  lists: () => [...feedKeys.all, 'list'] as const,
  list: (filters: FeedFilters) => [...feedKeys.lists(), filters] as const,
};

/** The scouts directory, suggestions, one scout's page and their recent nominations. */
export const scoutKeys = {
  all: queryRoots.scouts,
  directory: () => [...scoutKeys.all, 'directory'] as const,
  suggested: () => [...scoutKeys.all, 'suggested'] as const,
  detail: (userId: number) => [...scoutKeys.all, 'detail', userId] as const,
  nominations: (userId: number) => [...scoutKeys.all, 'nominations', userId] as const,
};
