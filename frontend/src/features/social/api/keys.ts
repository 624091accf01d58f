import type { Sport } from '@/stores/sport';

export type FeedFilters = { sport: Sport; following: boolean };

/** The activity feed, per sport and "Following" filter. */
export const feedKeys = {
  all: ['feed'] as const,
  lists: () => [...feedKeys.all, 'list'] as const,
  list: (filters: FeedFilters) => [...feedKeys.lists(), filters] as const,
};

/** Follows of scouts: the caller's status per scout and what the caller follows per sport. */
export const followKeys = {
  all: ['follow'] as const,
  statuses: () => [...followKeys.all, 'status'] as const,
  userStatus: (userId: number) => [...followKeys.statuses(), { userId }] as const,
  followingLists: () => [...followKeys.all, 'following'] as const,
  following: (sport: Sport) => [...followKeys.followingLists(), { sport }] as const,
};

/** The scouts directory, suggestions, one scout's page and their recent nominations. */
export const scoutKeys = {
  all: ['scouts'] as const,
  directory: () => [...scoutKeys.all, 'directory'] as const,
  suggested: () => [...scoutKeys.all, 'suggested'] as const,
  detail: (userId: number) => [...scoutKeys.all, 'detail', userId] as const,
  nominations: (userId: number) => [...scoutKeys.all, 'nominations', userId] as const,
};
