import { Award } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { useCoachIds } from '@/hooks/use-coach-ids';

/** "Verified coach" beside the name of a member an admin verified as a coach. */
export function CoachBadge({ userId, className }: { userId: number; className?: string }) {
  const coaches = useCoachIds().data;
  if (!coaches?.has(userId)) return null;
  return (
    <Badge variant="green" className={className} data-testid="coach-badge">
      <Award className="size-3.5" aria-hidden="true" />
      Verified coach
    </Badge>
  );
}
