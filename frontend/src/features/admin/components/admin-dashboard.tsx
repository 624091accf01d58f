import { ShieldCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ApiError } from '@/lib/api-client';

import { useClaimsQueue } from '../api/claims';
import { useUpdatesQueue } from '../api/player-updates';
import { useCoachVerifications } from '../api/coaches';
import { useCommentsQueue } from '../api/comments';
import { useAdminStats } from '../api/get-stats';
import { useAdminUsers } from '../api/get-users';
import { useIntegrityFlags } from '../api/integrity';
import { useReportGroups, useTakedowns } from '../api/safety';
import { useAdminLive } from '../hooks/use-admin-live';
import { useErrorToast } from '../hooks/use-error-toast';

import { isAdminTab, type AdminTab } from './admin-tabs';
import { ClaimsTab } from './claims-tab';
import { PlayerUpdatesTab } from './player-updates-tab';
import { CoachesTab } from './coaches-tab';
import { CommentsTab } from './comments-tab';
import { DecidedTab } from './decided-tab';
import { IntegrityTab } from './integrity-tab';
import { LogTab } from './log-tab';
import { PendingTab } from './pending-tab';
import type { RenderEditPlayer } from './pending-row';
import { ReportsTab } from './reports-tab';
import { StatCards } from './stat-cards';
import { TopScoutsTab } from './top-scouts-tab';
import { UsersTab } from './users-tab';

function count(value: number | undefined, more = false) {
  return value === undefined ? '' : ` (${value.toLocaleString('en-US')}${more ? '+' : ''})`;
}

/** The server's words for an admin whose session may not use the admin tools yet. */
export const TURN_ON_TWO_FACTOR = 'Turn on two-factor sign-in in Settings to use the admin tools';

/** What an admin sees until their session has passed two-factor sign-in. */
function SecondFactorNeeded({ message }: { message: string }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center rounded-xl border border-border bg-surface px-6 py-10 text-center shadow-sm">
      <ShieldCheck className="size-8 text-primary" aria-hidden="true" />
      <h2 className="mt-3 text-lg font-semibold">Two-factor sign-in needed</h2>
      <p className="mt-1 text-sm text-muted-foreground">{message}.</p>
      <Link to="/settings#two-factor" className={buttonClasses({ className: 'mt-4' })}>
        Go to Settings
      </Link>
    </div>
  );
}

type DashboardProps = { viewerId: number; renderEditPlayer?: RenderEditPlayer };

/**
 * The admin dashboard: the platform numbers and the moderation tabs, all live. The tab is kept
 * in the address (?tab=) so a reload or a shared link opens the same one. A session that may
 * not act as an admin (`actsAsAdmin` of the session: an admin who has not passed two-factor
 * sign-in) gets the enrolment step instead, and none of the admin reads is made.
 */
export function AdminDashboard({
  actsAsAdmin,
  ...props
}: DashboardProps & { actsAsAdmin: boolean }) {
  if (!actsAsAdmin) return <SecondFactorNeeded message={TURN_ON_TWO_FACTOR} />;
  return <AdminTools {...props} />;
}

function AdminTools({ viewerId, renderEditPlayer }: DashboardProps) {
  useAdminLive();
  const claims = useClaimsQueue().data;
  const playerUpdates = useUpdatesQueue().data;
  const coaches = useCoachVerifications('pending').data;
  const heldComments = useCommentsQueue().data;
  const stats = useAdminStats();
  useErrorToast(stats.error, 'Failed to fetch admin statistics');
  const usersQuery = useAdminUsers();
  const users = usersQuery.data?.pages.flatMap((page) => page.items);
  const reportGroups = useReportGroups().data;
  const takedowns = useTakedowns().data;
  const flags = useIntegrityFlags().data;
  const openFlags = flags?.filter((flag) => flag.status === 'open').length;
  const openItems = reportGroups && takedowns ? reportGroups.length + takedowns.length : undefined;
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: AdminTab = isAdminTab(requested) ? requested : 'pending';
  const openTab = (next: AdminTab) =>
    setSearchParams(next === 'pending' ? {} : { tab: next }, { replace: true });

  if (stats.error instanceof ApiError && stats.error.code === 'two_factor_required') {
    return <SecondFactorNeeded message={stats.error.message} />;
  }

  return (
    <>
      <StatCards stats={stats.data} onOpenTab={openTab} />
      <Tabs value={tab} onValueChange={(value) => isAdminTab(value) && openTab(value)}>
        <TabsList aria-label="Moderation">
          <TabsTrigger value="pending">Pending{count(stats.data?.pendingNominations)}</TabsTrigger>
          <TabsTrigger value="approved">
            Approved{count(stats.data?.approvedNominations)}
          </TabsTrigger>
          <TabsTrigger value="rejected">
            Rejected{count(stats.data?.rejectedNominations)}
          </TabsTrigger>
          <TabsTrigger value="scouts">Top Scouts</TabsTrigger>
          <TabsTrigger value="users">
            Users{count(users?.length, usersQuery.hasNextPage)}
          </TabsTrigger>
          <TabsTrigger value="reports">Reports{count(openItems)}</TabsTrigger>
          <TabsTrigger value="log">Log</TabsTrigger>
          <TabsTrigger value="integrity">Integrity{count(openFlags)}</TabsTrigger>
          <TabsTrigger value="claims">Claims{count(claims?.length)}</TabsTrigger>
          <TabsTrigger value="updates">Player updates{count(playerUpdates?.length)}</TabsTrigger>
          <TabsTrigger value="coaches">Coaches{count(coaches?.length)}</TabsTrigger>
          <TabsTrigger value="comments">Comments{count(heldComments?.length)}</TabsTrigger>
        </TabsList>
        <TabsContent value="pending" className="outline-none">
          <PendingTab renderEditPlayer={renderEditPlayer} />
        </TabsContent>
        <TabsContent value="approved" className="outline-none">
          <DecidedTab status="approved" />
        </TabsContent>
        <TabsContent value="rejected" className="outline-none">
          <DecidedTab status="rejected" />
        </TabsContent>
        <TabsContent value="scouts" className="outline-none">
          <TopScoutsTab />
        </TabsContent>
        <TabsContent value="users" className="outline-none">
          <UsersTab viewerId={viewerId} />
        </TabsContent>
        <TabsContent value="reports" className="outline-none">
          <ReportsTab />
        </TabsContent>
        <TabsContent value="log" className="outline-none">
          <LogTab />
        </TabsContent>
        <TabsContent value="integrity" className="outline-none">
          <IntegrityTab />
        </TabsContent>
        <TabsContent value="claims" className="outline-none">
          <ClaimsTab />
        </TabsContent>
        <TabsContent value="updates" className="outline-none">
          <PlayerUpdatesTab />
        </TabsContent>
        <TabsContent value="coaches" className="outline-none">
          <CoachesTab />
        </TabsContent>
        <TabsContent value="comments" className="outline-none">
          <CommentsTab />
        </TabsContent>
      </Tabs>
    </>
  );
}
