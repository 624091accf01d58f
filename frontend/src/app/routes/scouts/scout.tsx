import { PageHeader } from '@/components/ui/page-header';

export default function ScoutPage() {
  return <PageHeader title="Scout Profile" description="A scout and their recent nominations." />;
}
