import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { useConnectionStore } from '@/stores/connection';

import { ConnectionIndicator } from './connection-indicator';

afterEach(() => {
  act(() => useConnectionStore.setState({ status: 'closed' }));
});

describe('ConnectionIndicator', () => {
  it('follows the connection store', () => {
    render(<ConnectionIndicator />);
    expect(screen.getByRole('status')).toHaveTextContent('Offline');
    act(() => useConnectionStore.getState().setStatus('connecting'));
    expect(screen.getByRole('status')).toHaveTextContent('Connecting');
    act(() => useConnectionStore.getState().setStatus('open'));
    expect(screen.getByRole('status')).toHaveTextContent('Live');
    expect(screen.getByRole('status')).toHaveAttribute('title', 'Live updates: live');
  });
});
