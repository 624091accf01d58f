import { PageHeader } from '@/components/ui/page-header';
import { ScoutDirectory } from '@/features/social/components/scout-directory';

export default function DiscoverPage() {
  return (
    <>
      <PageHeader
        title="Discover Scouts"
        description="Find scouts in the community, see what they nominate and follow the ones you trust."
      />
      <ScoutDirectory />
    </>
  );
}
