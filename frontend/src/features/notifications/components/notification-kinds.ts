import {
  Bell,
  CircleCheck,
  CircleX,
  Megaphone,
  RefreshCw,
  ThumbsUp,
  TrendingUp,
  TriangleAlert,
  UserPlus,
  type LucideIcon,
} from 'lucide-react';

type Kind = { title: string; icon: LucideIcon; tone: string };

const KINDS: Record<string, Kind> = {
  nomination_submitted: { title: 'Nomination submitted', icon: Megaphone, tone: 'text-primary' },
  nomination_approved: { title: 'Nomination approved', icon: CircleCheck, tone: 'text-success' },
  nomination_rejected: { title: 'Nomination rejected', icon: CircleX, tone: 'text-destructive' },
  vote_received: { title: 'New vote', icon: ThumbsUp, tone: 'text-primary' },
  rank_changed: { title: 'Rank changed', icon: TrendingUp, tone: 'text-secondary' },
  new_follower: { title: 'New follower', icon: UserPlus, tone: 'text-purple' },
  player_update: { title: 'Player update', icon: RefreshCw, tone: 'text-secondary' },
  nomination_removed: { title: 'Nomination removed', icon: CircleX, tone: 'text-destructive' },
  moderation_warning: {
    title: 'Warning from the moderators',
    icon: TriangleAlert,
    tone: 'text-warning',
  },
};

const OTHER: Kind = { title: 'Notification', icon: Bell, tone: 'text-muted-foreground' };

/** How a notification type looks: its toast title, its icon and the icon's colour. */
export function notificationKind(type: string): Kind {
  return KINDS[type] ?? OTHER;
}

export function notificationTitle(type: string): string {
  return notificationKind(type).title;
}
