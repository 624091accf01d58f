import { PageHeader } from '@/components/ui/page-header';

export default function HomePage() {
  return (
    <PageHeader
      title="Dashboard"
      description="Your nominations, the community's latest picks and what needs votes."
    />
  );
}
