import { PageHeader } from '@/components/ui/page-header';

export default function DiscoverPage() {
  return <PageHeader title="Discover Scouts" description="Find scouts to follow." />;
}
