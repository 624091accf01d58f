export const ADMIN_TABS = [
  'pending',
  'approved',
  'rejected',
  'scouts',
  'users',
  'reports',
  'log',
  'integrity',
  'claims',
  'updates',
  'coaches',
  'comments',
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number];

export function isAdminTab(value: unknown): value is AdminTab {
  return ADMIN_TABS.includes(value as AdminTab);
}
