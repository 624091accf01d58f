import { describe, expect, it } from 'vitest';

import { formatCountdown } from './countdown';

describe('formatCountdown', () => {
  it('reads days, then hours, minutes and seconds, never below zero', () => {
    expect(formatCountdown(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999)).toBe('2d 03:04:05');
    expect(formatCountdown(86_399_000)).toBe('23:59:59');
    expect(formatCountdown(86_400_000)).toBe('1d 00:00:00');
    expect(formatCountdown(999)).toBe('00:00:00');
    expect(formatCountdown(-5000)).toBe('00:00:00');
  });
});
