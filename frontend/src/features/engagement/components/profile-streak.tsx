import { Flame } from 'lucide-react';

import { useProfileStreak } from '../api/engagement';

/**
 * A scout's streak on their profile: shown only when its adult turned "Show my streak on my
 * profile" on (the server answers 404 otherwise, and nothing shows).
 */
export function ProfileStreak({ userId }: { userId: number | null }) {
  const { data } = useProfileStreak(userId);
  if (!data || data.current < 1) return null;
  return (
    <p className="mt-4 flex items-center gap-1.5 text-sm text-muted-foreground">
      <Flame className="size-4 text-warning" aria-hidden="true" />
      {data.current}-day streak (longest {data.longest})
    </p>
  );
}
