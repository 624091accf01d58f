import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { TOAST_REMOVE_DELAY_MS, toast, useToastStore } from './toast';

const toasts = () => useToastStore.getState().toasts;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  useToastStore.getState().remove();
  vi.useRealTimers();
});

describe('toast store', () => {
  it('keeps one toast: a new one replaces the previous', () => {
    toast({ title: 'First' });
    toast({ title: 'Second', description: 'More' });
    expect(toasts()).toEqual([
      expect.objectContaining({
        title: 'Second',
        description: 'More',
        open: true,
        variant: 'default',
      }),
    ]);
  });

  it('titles a destructive toast "Error" unless told otherwise', () => {
    toast({ variant: 'destructive', description: 'Failed to log out. Please try again.' });
    expect(toasts()[0]).toMatchObject({ title: 'Error', variant: 'destructive' });
    toast({ variant: 'destructive', title: 'Login failed', description: 'Nope' });
    expect(toasts()[0].title).toBe('Login failed');
    toast({ description: 'Plain' });
    expect(toasts()[0].title).toBeUndefined();
  });

  it('closes on dismiss and removes the toast after the removal delay', () => {
    const { id, dismiss } = toast({ title: 'Saved' });
    dismiss();
    expect(toasts()).toEqual([expect.objectContaining({ id, open: false })]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(toasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts()).toHaveLength(0);
  });

  it('does not let an old removal timer touch a newer toast', () => {
    toast({ title: 'Old' }).dismiss();
    toast({ title: 'New' });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(toasts()).toEqual([expect.objectContaining({ title: 'New', open: true })]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('works outside React', () => {
    const handle = toast({ title: 'Hi' });
    expect(handle.id).toEqual(expect.any(String));
    expect(toasts()[0].id).toBe(handle.id);
  });
});
