import { createLucideIcon } from 'lucide-react';

/**
 * lucide has no basketball or baseball icon, so these two are drawn in its style (24 x 24 grid,
 * 2 px round strokes, currentColor) and behave like any lucide icon (size, className, aria).
 */

/** A ball with the cross seams and the two curved side seams of a basketball. */
export const Basketball = createLucideIcon('basketball', [
  ['circle', { cx: '12', cy: '12', r: '10', key: 'ball' }],
  ['path', { d: 'M12 2v20', key: 'vertical' }],
  ['path', { d: 'M2 12h20', key: 'horizontal' }],
  ['path', { d: 'M4.93 4.93c3.9 3.9 3.9 10.24 0 14.14', key: 'left' }],
  ['path', { d: 'M19.07 4.93c-3.9 3.9-3.9 10.24 0 14.14', key: 'right' }],
]);

/** A ball with the two stitched, curved seams of a baseball. */
export const Baseball = createLucideIcon('baseball', [
  ['circle', { cx: '12', cy: '12', r: '10', key: 'ball' }],
  ['path', { d: 'M5 5.5c2.5 3.5 2.5 9.5 0 13', key: 'left-seam' }],
  ['path', { d: 'M19 5.5c-2.5 3.5-2.5 9.5 0 13', key: 'right-seam' }],
  ['path', { d: 'M5.3 8.5h2M5.9 12h2M5.3 15.5h2', key: 'left-stitches' }],
  ['path', { d: 'M16.7 8.5h2M16.1 12h2M16.7 15.5h2', key: 'right-stitches' }],
]);
