/** The signed-in user's settings (GET /api/settings) and two-factor sign-in (GET /api/auth/2fa). */
export const settingsKeys = {
  all: ['settings'] as const,
  me: () => [...settingsKeys.all, 'me'] as const,
  twoFactor: () => [...settingsKeys.all, 'two-factor'] as const,
};
