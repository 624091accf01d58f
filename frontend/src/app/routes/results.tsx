import { PageHeader } from '@/components/ui/page-header';

export default function ResultsPage() {
  return <PageHeader title="Leaderboard" description="Top players and top scouts." />;
}
