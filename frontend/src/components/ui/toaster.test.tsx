import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { TOAST_DURATION_MS, toast, useToastStore } from '@/stores/toast';

import { Toaster } from './toaster';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const show = (input: Parameters<typeof toast>[0]) => act(() => void toast(input));

describe('Toaster', () => {
  it('shows the title and description', () => {
    render(<Toaster />);
    show({ title: 'Vote submitted', description: 'You have voted for Sam.' });
    expect(screen.getByText('Vote submitted')).toBeInTheDocument();
    expect(screen.getByText('You have voted for Sam.')).toBeInTheDocument();
  });

  it('shows at most one toast: a new one replaces the previous', () => {
    render(<Toaster />);
    show({ title: 'First' });
    show({ title: 'Second' });
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('shows a destructive toast titled "Error" by default', () => {
    render(<Toaster />);
    show({ variant: 'destructive', description: 'An error occurred while voting.' });
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByText('An error occurred while voting.')).toBeInTheDocument();
  });

  it('closes by itself after 5000 ms', () => {
    render(<Toaster />);
    show({ title: 'Short-lived' });
    act(() => vi.advanceTimersByTime(4900));
    expect(screen.getByText('Short-lived')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Short-lived')).not.toBeInTheDocument();
    expect(useToastStore.getState().toasts[0].open).toBe(false);
  });

  it('closes from its close button', () => {
    render(<Toaster />);
    show({ title: 'Closable' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Closable')).not.toBeInTheDocument();
  });

  it('focuses the notification region on F8', () => {
    render(<Toaster />);
    show({ title: 'Focus me' });
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(region.querySelector('ol')).toHaveFocus();
  });

  it('is dismissed by a swipe to the right past 50 px, not by a shorter one', () => {
    const captured = new Set<number>();
    Element.prototype.setPointerCapture = (id: number) => void captured.add(id);
    Element.prototype.hasPointerCapture = (id: number) => captured.has(id);
    Element.prototype.releasePointerCapture = (id: number) => void captured.delete(id);
    render(<Toaster />);
    show({ title: 'Swipe me' });

    const swipe = (dx: number) => {
      const item = screen.getByText('Swipe me').closest('li')!;
      fireEvent.pointerDown(item, { button: 0, pointerId: 1, clientX: 0, clientY: 0 });
      fireEvent.pointerMove(item, { pointerId: 1, clientX: dx, clientY: 0 });
      fireEvent.pointerUp(item, { pointerId: 1, clientX: dx, clientY: 0 });
    };

    swipe(40);
    expect(screen.getByText('Swipe me')).toBeInTheDocument();
    swipe(60);
    expect(screen.queryByText('Swipe me')).not.toBeInTheDocument();
  });

  it('runs a toast action and closes the toast', () => {
    const onClick = vi.fn();
    render(<Toaster />);
    show({ title: 'New version available', action: { label: 'Reload', onClick } });
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onClick).toHaveBeenCalledOnce();
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.queryByText('New version available')).not.toBeInTheDocument();
  });

  it('keeps a persistent toast open past the usual duration', () => {
    render(<Toaster />);
    show({ title: 'Stays', persistent: true });
    act(() => void vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(screen.getByText('Stays')).toBeInTheDocument();
  });
});
