import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useRotation } from './use-rotation';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useRotation', () => {
  it('moves on every period and starts over, on one timer however long it runs', () => {
    const { result, unmount } = renderHook(() => useRotation(3, 20));
    const seen = [result.current];
    for (let step = 0; step < 4; step += 1) {
      act(() => vi.advanceTimersByTime(20_000));
      seen.push(result.current);
    }
    expect(seen).toEqual([0, 1, 2, 0, 1]);
    act(() => vi.advanceTimersByTime(20_000 * 10_000));
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps a single board without a timer', () => {
    const { result } = renderHook(() => useRotation(1, 20));
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
