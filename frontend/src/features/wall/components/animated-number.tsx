import { useLayoutEffect, useRef } from 'react';

import { prefersReducedMotion } from '../hooks/motion';

const DURATION_MS = 800;

const format = (value: number) => Math.round(value).toLocaleString('en-US');

const easeOut = (t: number) => 1 - (1 - t) ** 3;

/**
 * A number that counts up (or down) to its new value. The text is written here, not rendered by
 * React, so a count animating on a wall for days costs no renders per frame.
 */
export function AnimatedNumber({ value, className }: { value: number; className?: string }) {
  const element = useRef<HTMLSpanElement>(null);
  const shown = useRef(value);

  useLayoutEffect(() => {
    const node = element.current;
    if (!node) return;
    const from = shown.current;
    if (from === value || prefersReducedMotion() || typeof requestAnimationFrame !== 'function') {
      shown.current = value;
      node.textContent = format(value);
      return;
    }
    const start = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const progress = Math.min(1, (now - start) / DURATION_MS);
      shown.current = from + (value - from) * easeOut(progress);
      node.textContent = format(shown.current);
      if (progress < 1) frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [value]);

  return <span ref={element} className={className} />;
}
