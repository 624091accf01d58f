import { useEffect, useState } from 'react';

/**
 * Which of `count` items to show, moving on every `seconds` and starting over after the last.
 * One interval, whatever the running time; none for a single item.
 */
export function useRotation(count: number, seconds: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (count < 2) return;
    const timer = setInterval(() => setTick((current) => (current + 1) % count), seconds * 1000);
    return () => clearInterval(timer);
  }, [count, seconds]);
  return count < 2 ? 0 : tick % count;
}
