/// <reference types="vite-plugin-pwa/client" />
/**
 * Registers the service worker (sw/sw.ts) and offers a new build when one is waiting: a toast
 * "New version available" whose "Reload" lets the new worker take over and reloads the page.
 * Until then the open tab keeps the build it started with. Loaded lazily after the page.
 */
import { registerSW } from 'virtual:pwa-register';

import { toast } from '@/stores/toast';

/** A tab that stays open looks for a new build this often, and whenever it is shown again. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function registerServiceWorker() {
  const updateServiceWorker = registerSW({
    immediate: true,
    onNeedRefresh() {
      toast({
        title: 'New version available',
        description: 'Reload to use the latest ScoutVote.',
        persistent: true,
        action: {
          label: 'Reload',
          altText: 'Reload the page to use the new version',
          onClick: () => void updateServiceWorker(true),
        },
      });
    },
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      const check = () => {
        if (!registration.installing && navigator.onLine) void registration.update();
      };
      setInterval(check, UPDATE_CHECK_MS);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    },
  });
}
