import { PageHeader } from '@/components/ui/page-header';

export default function NeedingVotesPage() {
  return (
    <PageHeader
      title="Nominations Needing Votes"
      description="Nominations with fewer than 5 votes."
    />
  );
}
