import { useSyncExternalStore } from 'react';

function subscribe(changed: () => void) {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

const isOnline = () => navigator.onLine;

/**
 * Whether the browser has a network, as its `online` and `offline` events tell: a lost network
 * shows at once, without waiting for a socket's heartbeat to time out. (A network that is there
 * but leads nowhere still reads as online; the heartbeat catches that.)
 */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
