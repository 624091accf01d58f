import { PageHeader } from '@/components/ui/page-header';

export default function NominationDetailPage() {
  return (
    <PageHeader
      title="Player Profile"
      description="A nominated player and their community votes."
    />
  );
}
