import { queryRoots } from '@/lib/query-keys';

/**
 * An adult member's quests (GET /api/quests), engagement switches (GET
 * /api/settings/engagement), streak (GET /api/streak) and referrals (GET /api/referrals).
 */
export const engagementKeys = {
  all: queryRoots.engagement,
  quests: () => [...engagementKeys.all, 'quests'] as const,
  settings: () => [...engagementKeys.all, 'settings'] as const,
  streak: () => [...engagementKeys.all, 'streak'] as const,
  referrals: () => [...engagementKeys.all, 'referrals'] as const,
  profileStreak: (userId: number) => [...engagementKeys.all, 'profile-streak', userId] as const,
};
