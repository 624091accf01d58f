import {
  Activity as ActivityIcon,
  BadgeCheck,
  ChevronRight,
  Megaphone,
  ThumbsUp,
  UserPlus,
  UserRoundCheck,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';

import { CoachBadge } from '@/components/coach-badge';
import { activityAuthor, activityText, relativeTime } from '@/lib/activity-text';
import { cn } from '@/lib/utils';

import type { Activity } from '../api/types';

const icons: Record<string, { icon: LucideIcon; tone: string }> = {
  nomination_created: { icon: UserPlus, tone: 'bg-primary-soft text-primary' },
  vote_cast: { icon: ThumbsUp, tone: 'bg-secondary-soft text-secondary' },
  player_update: { icon: Megaphone, tone: 'bg-purple-soft text-purple' },
  follow: { icon: UserRoundCheck, tone: 'bg-success-soft text-success' },
  player_claimed: { icon: BadgeCheck, tone: 'bg-warning-soft text-warning' },
};
const defaultIcon = { icon: ActivityIcon, tone: 'bg-muted text-muted-foreground' };

type ActivityItemProps = {
  activity: Activity;
  /** The time "now" the relative time is measured from; passed so a ticking clock re-renders. */
  now: Date;
  highlighted?: boolean;
};

export function ActivityItem({ activity, now, highlighted = false }: ActivityItemProps) {
  const { icon: Icon, tone } = icons[activity.activityType] ?? defaultIcon;
  return (
    <li
      className={cn(
        'flex gap-3 rounded-xl border border-border bg-surface p-4 shadow-sm transition-colors sm:gap-4',
        highlighted && 'border-primary/40 bg-primary-soft/40',
      )}
    >
      <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-full', tone)}>
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm leading-relaxed break-words sm:text-base">
          <Link
            to={`/scout/${activity.userId}`}
            className="font-semibold text-foreground hover:text-primary hover:underline"
          >
            {activityAuthor(activity)}
          </Link>{' '}
          <CoachBadge userId={activity.userId} className="mr-1 align-middle" />
          <span className="text-foreground/90">{activityText(activity)}</span>
        </p>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground sm:text-sm">
          <time dateTime={activity.createdAt} title={new Date(activity.createdAt).toLocaleString()}>
            {relativeTime(activity.createdAt, now)}
          </time>
          {activity.relatedNominationId != null && (
            <Link
              to={`/nominations/${activity.relatedNominationId}`}
              className="inline-flex items-center gap-0.5 font-medium text-primary hover:underline"
            >
              View nomination
              <ChevronRight className="size-3.5" aria-hidden="true" />
            </Link>
          )}
        </div>
      </div>
    </li>
  );
}
