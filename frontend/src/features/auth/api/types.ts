import type { components } from '@/lib/api/schema';

/** The current user, as GET /api/auth/me, login and register return it. */
export type AuthUser = components['schemas']['MeOut'];
