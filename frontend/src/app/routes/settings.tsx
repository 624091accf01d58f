import { PageHeader } from '@/components/ui/page-header';

export default function SettingsPage() {
  return (
    <PageHeader title="Settings" description="Account, password, notifications and privacy." />
  );
}
