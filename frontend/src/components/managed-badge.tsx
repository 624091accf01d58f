import { ShieldCheck } from 'lucide-react';

import { Badge } from '@/components/ui/badge';

export type ManagedBy = 'family' | 'athlete';

const MANAGED_BY_LABELS: Record<ManagedBy, string> = {
  family: "Managed by the athlete's family",
  athlete: 'Managed by the athlete',
};

/** "Managed by the athlete's family" (or "by the athlete") on a claimed player's card and page. */
export function ManagedBadge({ managedBy }: { managedBy: ManagedBy | null | undefined }) {
  if (!managedBy) return null;
  return (
    <Badge variant="secondary" data-testid="managed-badge">
      <ShieldCheck className="size-3.5" aria-hidden="true" />
      {MANAGED_BY_LABELS[managedBy]}
    </Badge>
  );
}
