import { queryRoots } from '@/lib/query-keys';

import type { Decision, ModlogFilters } from './types';

/** Every admin read lives under ['admin', ...], so a live resync can refresh them all at once. */
export const adminKeys = {
  all: queryRoots.admin,
  stats: () => [...adminKeys.all, 'stats'] as const,
  pending: () => [...adminKeys.all, 'nominations', 'pending'] as const,
  decided: (status: Decision) => [...adminKeys.all, 'nominations', status] as const,
  topScouts: () => [...adminKeys.all, 'top-scouts'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  reports: () => [...adminKeys.all, 'reports'] as const,
  takedowns: () => [...adminKeys.all, 'takedowns'] as const,
  takedownRefusals: () => [...adminKeys.all, 'takedowns', 'refused'] as const,
  hidden: () => [...adminKeys.all, 'nominations', 'hidden'] as const,
  integrityFlags: () => [...adminKeys.all, 'integrity', 'flags'] as const,
  nominationVoters: (nominationId: number) =>
    [...adminKeys.all, 'integrity', 'voters', nominationId] as const,
  modlogs: () => [...adminKeys.all, 'modlog'] as const,
  modlog: (filters: ModlogFilters) => [...adminKeys.modlogs(), filters] as const,
};
