import { PageHeader } from '@/components/ui/page-header';

export default function AdminDashboardPage() {
  return (
    <PageHeader
      title="Admin Dashboard"
      description="Moderate nominations, verify players and manage users."
    />
  );
}
