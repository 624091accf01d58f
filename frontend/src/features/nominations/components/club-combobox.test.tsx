import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { useSportStore } from '@/stores/sport';
import { mockFetch } from '@/testing/fetch-mock';
import { renderRoutes, scout } from '@/testing/render';

import { NominatePlayerDialog } from './nominate-player-dialog';

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
  useSportStore.setState({ sport: 'soccer' });
});

const PORTO = { id: 4, name: 'FC Porto', sport: 'soccer', location: '', playerCount: 3 };

function renderForm() {
  const { requests } = mockFetch({
    'GET /api/clubs': (request) => ({
      body: request.url.includes('q=F.C.') || request.url.includes('q=Port') ? [PORTO] : [],
    }),
  });
  renderRoutes(
    [
      {
        path: '*',
        element: <NominatePlayerDialog trigger={<button type="button">Nominate Player</button>} />,
      },
    ],
    { user: scout },
  );
  return { requests, user: userEvent.setup() };
}

describe('the club field of the nomination form', () => {
  it("suggests the sport's clubs as a club is typed, and a pick fills the field", async () => {
    const { requests, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Nominate Player' }));
    const dialog = await screen.findByRole('dialog', { name: 'Athlete Nomination' });
    const club = within(dialog).getByRole('combobox', { name: 'Current Club/School' });
    expect(club).toHaveAttribute('aria-expanded', 'false');
    await user.type(club, 'F.C. Por');
    const option = await within(dialog).findByRole('option', { name: 'FC Porto (3 players)' });
    expect(club).toHaveAttribute('aria-expanded', 'true');
    expect(requests.at(-1)?.url).toBe('/api/clubs?sport=soccer&q=F.C.+Por');
    await user.keyboard('{ArrowDown}');
    expect(club).toHaveAttribute('aria-activedescendant', option.id);
    expect(option).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(club).toHaveValue('FC Porto');
    expect(club).toHaveAttribute('aria-expanded', 'false');
    // The dialog is still open: Enter picked, it did not submit.
    expect(screen.getByRole('dialog', { name: 'Athlete Nomination' })).toBeInTheDocument();
  });

  it('closes the list on Escape before the dialog, and keeps free text', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Nominate Player' }));
    const dialog = await screen.findByRole('dialog', { name: 'Athlete Nomination' });
    const club = within(dialog).getByRole('combobox', { name: 'Current Club/School' });
    await user.type(club, 'Port');
    await within(dialog).findByRole('option', { name: 'FC Porto (3 players)' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(club).toHaveAttribute('aria-expanded', 'false'));
    expect(screen.getByRole('dialog', { name: 'Athlete Nomination' })).toBeInTheDocument();
    expect(club).toHaveValue('Port');
    await user.clear(club);
    await user.type(club, 'Brand New Academy');
    expect(club).toHaveValue('Brand New Academy');
    // No club of the sport holds that name: the list closes once the answer comes.
    await waitFor(() =>
      expect(within(dialog).queryByRole('option', { name: /FC Porto/ })).not.toBeInTheDocument(),
    );
    expect(club).toHaveAttribute('aria-expanded', 'false');
  });
});
