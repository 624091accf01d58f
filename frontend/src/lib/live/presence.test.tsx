import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { usePresenceStore, useWatchNomination } from './presence';
import { WatchingCount } from './watching-count';

function Page({ id }: { id: number }) {
  useWatchNomination(id);
  return <WatchingCount scope="nomination" id={id} />;
}

afterEach(() => {
  usePresenceStore.setState({ counts: {}, reviews: [], watching: null });
});

describe('presence', () => {
  it('watches the open nomination while mounted and shows "N watching" once told', () => {
    const view = render(<Page id={7} />);
    expect(usePresenceStore.getState().watching).toBe(7);
    expect(screen.queryByTestId('watching')).toBeNull();
    act(() => usePresenceStore.getState().setCount({ scope: 'nomination', id: 7, watching: 3 }));
    expect(screen.getByTestId('watching')).toHaveTextContent('3 watching');
    view.unmount();
    expect(usePresenceStore.getState().watching).toBeNull();
  });

  it('forgets counts when the socket closes', () => {
    render(<WatchingCount scope="sport" id="soccer" />);
    act(() => usePresenceStore.getState().setCount({ scope: 'sport', id: 'soccer', watching: 2 }));
    expect(screen.getByTestId('watching')).toHaveTextContent('2 watching');
    act(() => usePresenceStore.getState().clear());
    expect(screen.queryByTestId('watching')).toBeNull();
  });
});
