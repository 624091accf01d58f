import { Download } from 'lucide-react';

import { Button } from '@/components/ui/button';

import { useExportMyData } from '../api/export';

/** Settings: download everything ScoutVote holds about the signed-in user (once an hour). */
export function ExportDataSection() {
  const exportData = useExportMyData();
  return (
    <section
      aria-labelledby="export-data-title"
      className="rounded-xl border border-border bg-surface p-6"
    >
      <h2 id="export-data-title" className="text-lg font-semibold">
        Your Data
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Download everything we hold about you: account, settings, nominations, votes, follows,
        activity and notifications, as one JSON file. Once an hour.
      </p>
      <Button
        variant="outline"
        className="mt-4"
        loading={exportData.isPending}
        onClick={() => exportData.mutate()}
      >
        <Download aria-hidden="true" />
        Export my data
      </Button>
    </section>
  );
}
