import { useEffect, useState } from 'react';

/**
 * The current time, renewed at each whole `intervalMs` of the clock (each second at 1000, each
 * minute at 60000), so a clock turns with the wall clock and relative times stay true on screen.
 */
export function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const untilNextTick = (time: number) => intervalMs - (time % intervalMs);
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = new Date();
      setNow(current);
      timer = setTimeout(tick, untilNextTick(current.getTime()));
    };
    timer = setTimeout(tick, untilNextTick(Date.now()));
    return () => clearTimeout(timer);
  }, [intervalMs]);
  return now;
}
