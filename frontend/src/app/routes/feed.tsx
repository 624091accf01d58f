import { PageHeader } from '@/components/ui/page-header';

export default function FeedPage() {
  return <PageHeader title="Activity Feed" description="What the community is doing right now." />;
}
