import type { InfiniteData } from '@tanstack/react-query';

import type { components } from '@/lib/api/schema';
import type { Page } from '@/lib/api-client';

export type AdminStats = components['schemas']['AdminStatsOut'];
export type AdminUser = components['schemas']['AdminUserOut'];
export type AdminScout = components['schemas']['AdminLeaderboardOut'];
export type Player = components['schemas']['PlayerOut'];
export type UserRef = components['schemas']['UserRefOut'];
export type DecisionConflict = components['schemas']['DecisionConflictOut'];
export type IntegrityFlag = components['schemas']['FlagOut'];
export type AuditVote = components['schemas']['AuditVoteOut'];
export type VoteSelectionResult = components['schemas']['VoteSelectionOut'];

/**
 * A nomination as the admin lists show it. REST adds hasVoted, live events leave it out; the
 * dashboard never shows it.
 */
export type AdminNomination = Omit<components['schemas']['NominationOut'], 'hasVoted'>;

export type Decision = 'approved' | 'rejected';

/** A pending item another admin just decided: kept briefly, greyed, with who decided it. */
export type DecidedMark = { action: Decision; by: UserRef | null };

export type PendingItem = AdminNomination & { decided?: DecidedMark };

/** The pending queue as cached: the pages read so far. */
export type PendingQueue = InfiniteData<Page<PendingItem>>;

/** Live `moderation.changed` (admins group): the tab counts after a decision, the item, who. */
export type ModerationChanged = {
  pending: number;
  approved: number;
  rejected: number;
  item: AdminNomination;
  action: Decision;
  by: UserRef | null;
};

export type AssignableRole = components['schemas']['RoleIn']['role'];

export type ReportGroup = components['schemas']['ReportGroupOut'];
export type ReportAction = components['schemas']['ReportResolveIn']['action'];
export type Takedown = components['schemas']['TakedownOut'];
export type TakedownRefusal = components['schemas']['TakedownRefusalOut'];
export type TakedownDecision = components['schemas']['TakedownDecideIn']['decision'];
export type ModlogEntry = components['schemas']['ModlogEntryOut'];
export type ModlogAction = components['schemas']['ModlogAction'];

/** The Log tab's filters, as GET /api/admin/modlog takes them (empty: not filtered). */
export type ModlogFilters = {
  actor?: number;
  action?: ModlogAction;
  targetType?: ModlogEntry['targetType'];
  targetId?: number;
  since?: string;
  until?: string;
};
