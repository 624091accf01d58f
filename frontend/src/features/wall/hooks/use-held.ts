import { useEffect, useState } from 'react';

/** `flag`, once it has held for `delayMs`: brief blips (a socket still opening) never show. */
export function useHeld(flag: boolean, delayMs: number): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!flag) return;
    const timer = setTimeout(() => setHeld(true), delayMs);
    return () => {
      clearTimeout(timer);
      setHeld(false);
    };
  }, [flag, delayMs]);
  return flag && held;
}
