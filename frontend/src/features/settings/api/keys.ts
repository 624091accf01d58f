import { queryRoots } from '@/lib/query-keys';

/**
 * The signed-in user's settings (GET /api/settings), two-factor sign-in (GET /api/auth/2fa), the
 * server's push key (GET /api/push/key) and this browser's push state (no request).
 */
export const settingsKeys = {
  all: queryRoots.settings,
  me: () => [...settingsKeys.all, 'me'] as const,
  twoFactor: () => [...settingsKeys.all, 'two-factor'] as const,
  pushKey: () => [...settingsKeys.all, 'push-key'] as const,
  pushDevice: () => [...settingsKeys.all, 'push-device'] as const,
};
