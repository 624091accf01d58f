import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useNow } from './use-now';

function Now({ intervalMs }: { intervalMs: number }) {
  return <time>{useNow(intervalMs).toISOString()}</time>;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('useNow', () => {
  it('turns at each whole second, however far into a second it started', () => {
    vi.setSystemTime(new Date('2025-03-01T12:00:00.700Z'));
    render(<Now intervalMs={1000} />);
    expect(screen.getByRole('time')).toHaveTextContent('2025-03-01T12:00:00.700Z');

    act(() => vi.advanceTimersByTime(299));
    expect(screen.getByRole('time')).toHaveTextContent('2025-03-01T12:00:00.700Z');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('time')).toHaveTextContent('2025-03-01T12:00:01.000Z');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('time')).toHaveTextContent('2025-03-01T12:00:02.000Z');
  });

  it('turns at each whole minute for relative times', () => {
    vi.setSystemTime(new Date('2025-03-01T12:00:20.000Z'));
    render(<Now intervalMs={60_000} />);

    act(() => vi.advanceTimersByTime(39_999));
    expect(screen.getByRole('time')).toHaveTextContent('2025-03-01T12:00:20.000Z');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('time')).toHaveTextContent('2025-03-01T12:01:00.000Z');
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('time')).toHaveTextContent('2025-03-01T12:02:00.000Z');
  });

  it('stops its timer when the screen goes', () => {
    vi.setSystemTime(new Date('2025-03-01T12:00:00.000Z'));
    const { unmount } = render(<Now intervalMs={1000} />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
