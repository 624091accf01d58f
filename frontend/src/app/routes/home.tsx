import { DocumentTitle } from '@/components/ui/document-title';
import { useUser } from '@/features/auth/hooks/use-user';
import { QuestsCard } from '@/features/engagement/components/quests-card';
import { DashboardHero } from '@/features/nominations/components/dashboard-hero';
import { MyNominations } from '@/features/nominations/components/my-nominations';
import { RecentNominations } from '@/features/nominations/components/recent-nominations';
import { StatsOverview } from '@/features/nominations/components/stats-overview';
import { useSport } from '@/stores/sport';

export default function HomePage() {
  const { user } = useUser();
  const { sport } = useSport();
  return (
    <>
      <DocumentTitle title="Dashboard" />
      <DashboardHero name={user?.name} />
      <div className="mt-8">
        <StatsOverview sport={sport} />
      </div>
      <QuestsCard adult={user?.ageBand === 'adult'} />
      {user && <MyNominations userId={user.id} />}
      <RecentNominations sport={sport} />
    </>
  );
}
