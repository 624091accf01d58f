import { WifiOff } from 'lucide-react';

import { useOnline } from '@/hooks/use-online';

/** Says so while the browser has no network (the shell still opens from the service worker). */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-2 bg-muted px-4 py-2 text-center text-sm text-foreground"
    >
      <WifiOff className="size-4 shrink-0" aria-hidden="true" />
      You&apos;re offline; live updates resume when you&apos;re back
    </div>
  );
}
