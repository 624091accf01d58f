import { ConnectionIndicator } from '@/components/connection-indicator';
import { DocumentTitle } from '@/components/ui/document-title';
import { useSport } from '@/stores/sport';

/** The full-screen live leaderboard for a TV: no header, no footer, nothing to click. */
export default function WallPage() {
  const { option } = useSport();
  const Icon = option.icon;
  return (
    <div className="flex min-h-dvh flex-col bg-slate-950 p-8 text-white">
      <DocumentTitle title="Live Wall" />
      <div className="flex items-center justify-between gap-6">
        <h1 className="flex items-center gap-4 text-4xl font-extrabold tracking-tight lg:text-6xl">
          <Icon className="size-12 text-secondary lg:size-16" aria-hidden="true" />
          {option.label} Leaderboard
        </h1>
        <ConnectionIndicator className="text-lg text-slate-300" />
      </div>
    </div>
  );
}
