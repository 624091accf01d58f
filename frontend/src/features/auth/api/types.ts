// Hand-written until `npm run gen:types` can read the backend's openapi.json; then these become
// aliases of the generated `components['schemas']` entries.

export type Role = 'scout' | 'admin' | 'player' | 'coach';

/** The current user, as GET /api/auth/me, login and register return it. */
export type AuthUser = {
  id: number;
  username: string;
  role: Role;
  name: string;
  /** Sent by this backend though the specification's session shape has no email. */
  email?: string;
  /** The sport picked at sign-up (or in the profile); may be blank. */
  favoriteSport?: string;
  avatarUrl?: string | null;
};
