import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  ANNOUNCE_INTERVAL_MS,
  useThrottledAnnouncement,
  useVoteCountAnnouncements,
  voteCountMessage,
} from './live-announcer';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const nomination = (id: number, name: string, voteCount: number) => ({
  id,
  voteCount,
  player: { name },
});

describe('useThrottledAnnouncement', () => {
  it('speaks at once, then at most once every 10 s, with the newest held message', () => {
    const { result } = renderHook(() => useThrottledAnnouncement());
    expect(ANNOUNCE_INTERVAL_MS).toBe(10_000);
    act(() => result.current.announce('first'));
    expect(result.current.message).toBe('first');

    act(() => result.current.announce('second'));
    act(() => result.current.announce('third'));
    expect(result.current.message).toBe('first');
    act(() => vi.advanceTimersByTime(9_999));
    expect(result.current.message).toBe('first');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.message).toBe('third');

    // The held message counts as spoken: the next one waits another 10 s.
    act(() => vi.advanceTimersByTime(5_000));
    act(() => result.current.announce('fourth'));
    expect(result.current.message).toBe('third');
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current.message).toBe('fourth');

    // After a quiet interval the next one is spoken at once.
    act(() => vi.advanceTimersByTime(10_000));
    act(() => result.current.announce('fifth'));
    expect(result.current.message).toBe('fifth');
  });
});

describe('useVoteCountAnnouncements', () => {
  it('announces changed counts only, throttled, named and counted', () => {
    const { result, rerender } = renderHook(({ list }) => useVoteCountAnnouncements(list), {
      initialProps: { list: [nomination(1, 'Quinn Archer', 11), nomination(2, 'Ada Stone', 1)] },
    });
    expect(result.current).toBe('');

    rerender({ list: [nomination(1, 'Quinn Archer', 12), nomination(2, 'Ada Stone', 1)] });
    expect(result.current).toBe('Quinn Archer now has 12 votes');

    rerender({ list: [nomination(1, 'Quinn Archer', 12), nomination(2, 'Ada Stone', 0)] });
    rerender({ list: [nomination(1, 'Quinn Archer', 13), nomination(2, 'Ada Stone', 0)] });
    expect(result.current).toBe('Quinn Archer now has 12 votes');
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current).toBe('Quinn Archer now has 13 votes');

    // A nomination seen for the first time (a new page, a new arrival) says nothing.
    act(() => vi.advanceTimersByTime(10_000));
    rerender({ list: [nomination(3, 'Lee Park', 4), nomination(1, 'Quinn Archer', 13)] });
    expect(result.current).toBe('Quinn Archer now has 13 votes');
  });

  it('says "vote" for one', () => {
    expect(voteCountMessage('Ada Stone', 1)).toBe('Ada Stone now has 1 vote');
    expect(voteCountMessage('Ada Stone', 0)).toBe('Ada Stone now has 0 votes');
  });
});
