import { PageHeader } from '@/components/ui/page-header';

export default function VotePage() {
  return <PageHeader title="Vote" description="Cast your vote for the athletes you believe in." />;
}
