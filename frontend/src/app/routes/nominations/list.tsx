import { PageHeader } from '@/components/ui/page-header';

export default function NominationsPage() {
  return (
    <PageHeader title="All Nominations" description="Every athlete the community has nominated." />
  );
}
