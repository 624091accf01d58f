import { ShieldAlert } from 'lucide-react';

import { useUnderReview } from '../api/takedown';

/**
 * On a player page a takedown request waits for: members still see the profile, marked so,
 * while it is hidden from visitors who are not signed in, from link previews and share images.
 */
export function UnderReviewNotice({ nominationId }: { nominationId: number }) {
  const review = useUnderReview(nominationId);
  if (!review.data?.underReview) return null;
  return (
    <div
      role="note"
      className="mb-4 flex items-start gap-3 rounded-xl border border-warning/40 bg-warning-soft p-4 text-sm"
    >
      <ShieldAlert className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
      <p>
        <strong>Under review.</strong> Someone who says they are this athlete or their parent asked
        us to take this profile down. While our moderators review the request, the profile is hidden
        from people who are not signed in and from shared links.
      </p>
    </div>
  );
}
