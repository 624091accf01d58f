import { useCallback, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/** Whether the page is scrolled down more than `offset` pixels. */
export function useScrolledPast(offset: number): boolean {
  const snapshot = useCallback(() => window.scrollY > offset, [offset]);
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
