import type { AuthUser } from '@/features/auth/api/types';

export type NavItem = { to: string; label: string; end?: boolean };

/** The main navigation: Feed only when signed in, Admin only for admins. */
export function navItems(user: AuthUser | null | undefined): NavItem[] {
  return [
    { to: '/', label: 'Dashboard', end: true },
    { to: '/nominations', label: 'Nominations' },
    { to: '/vote', label: 'Vote' },
    { to: '/results', label: 'Leaderboard' },
    ...(user ? [{ to: '/feed', label: 'Feed' }] : []),
    ...(user?.role === 'admin' ? [{ to: '/admin/dashboard', label: 'Admin' }] : []),
  ];
}
