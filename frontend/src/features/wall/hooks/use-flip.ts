import { useLayoutEffect, useRef, type RefObject } from 'react';

import { prefersReducedMotion } from './motion';

const MOVE = { duration: 700, easing: 'cubic-bezier(0.2, 0.8, 0.2, 1)' } as const;
const ENTER = { duration: 500, easing: 'ease-out' } as const;

type Point = { x: number; y: number };

/** Where a row is laid out in its container (offsets ignore transforms). */
function layoutPosition(element: HTMLElement): Point {
  return { x: element.offsetLeft, y: element.offsetTop };
}

/** What a running glide adds to the layout position: where the row is seen minus laid out. */
function glideOffset(element: HTMLElement, container: HTMLElement): Point {
  const seen = element.getBoundingClientRect();
  const box = container.getBoundingClientRect();
  const laidOut = layoutPosition(element);
  return {
    x: seen.left - box.left - container.clientLeft - laidOut.x,
    y: seen.top - box.top - container.clientTop - laidOut.y,
  };
}

/**
 * FLIP: items of `container` marked `data-flip-key` glide from where they were to where they are
 * now whenever `order` changes, and new ones fade in. `container` must be their offsetParent
 * (positioned). A row moved again mid-glide starts from
 * where it is seen, not from where it was laid out. Only the rows on screen are remembered.
 * Nothing moves for a viewer who prefers reduced motion.
 */
export function useFlip(container: RefObject<HTMLElement | null>, order: string) {
  const positions = useRef(new Map<string, Point>());

  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    const animate = !prefersReducedMotion();
    const next = new Map<string, Point>();
    for (const element of root.querySelectorAll<HTMLElement>('[data-flip-key]')) {
      const key = element.dataset.flipKey ?? '';
      const now = layoutPosition(element);
      next.set(key, now);
      if (!animate || typeof element.animate !== 'function') continue;
      const before = positions.current.get(key);
      if (before === undefined) {
        element.animate([{ opacity: 0 }, { opacity: 1 }], ENTER);
      } else if (before.x !== now.x || before.y !== now.y) {
        const glide = glideOffset(element, root);
        const dx = before.x - now.x + glide.x;
        const dy = before.y - now.y + glide.y;
        for (const running of element.getAnimations()) running.cancel();
        element.animate(
          [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }],
          MOVE,
        );
      }
    }
    positions.current = next;
  }, [container, order]);

  // A resized screen lays the rows out anew: remember where, without moving anything.
  useLayoutEffect(() => {
    const root = container.current;
    if (!root || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      for (const element of root.querySelectorAll<HTMLElement>('[data-flip-key]')) {
        positions.current.set(element.dataset.flipKey ?? '', layoutPosition(element));
      }
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, [container]);
}
