import type { Decision } from './types';

/** Every admin read lives under ['admin', ...], so a live resync can refresh them all at once. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  pending: () => [...adminKeys.all, 'nominations', 'pending'] as const,
  decided: (status: Decision) => [...adminKeys.all, 'nominations', status] as const,
  topScouts: () => [...adminKeys.all, 'top-scouts'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
};
