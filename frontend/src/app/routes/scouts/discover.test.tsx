import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockFetch } from '@/testing/fetch-mock';
import { renderRoutes, scout } from '@/testing/render';

import DiscoverPage from './discover';

function renderDiscover() {
  return renderRoutes([{ path: '/discover', element: <DiscoverPage /> }], {
    path: '/discover',
    user: scout,
  });
}

describe('DiscoverPage', () => {
  it('says it is loading, then shows a card per scout', async () => {
    mockFetch({
      'GET /api/users/scouts': {
        body: [
          {
            id: 5,
            username: 'bobby',
            name: 'Bob Stone',
            bio: 'Weekend scout.',
            location: 'Austin, USA',
            favoriteSport: 'tennis',
            points: 120,
            avatarUrl: '/media/avatars/5/a.png',
          },
          {
            id: 6,
            username: 'ann',
            name: 'ann lee',
            bio: '',
            location: '',
            favoriteSport: '',
            points: 0,
            avatarUrl: null,
          },
        ],
      },
    });
    renderDiscover();
    expect(screen.getByText('Loading scouts...')).toBeInTheDocument();

    const cards = within(await screen.findByRole('list', { name: 'Scouts' })).getAllByRole(
      'listitem',
    );
    const bob = cards.find((card) => card.textContent?.includes('@bobby'))!;
    expect(within(bob).getByRole('img', { name: 'Bob Stone' })).toHaveAttribute(
      'src',
      '/media/avatars/5/a.png',
    );
    expect(bob).toHaveTextContent('Weekend scout.');
    expect(bob).toHaveTextContent('Austin, USA');
    expect(bob).toHaveTextContent('Tennis');
    expect(bob).toHaveTextContent('120 points');
    expect(within(bob).getByRole('link', { name: /View Profile/ })).toHaveAttribute(
      'href',
      '/scout/5',
    );

    const ann = cards.find((card) => card.textContent?.includes('@ann'))!;
    expect(within(ann).queryByRole('img')).toBeNull();
    expect(ann).toHaveTextContent('A');
  });

  it('says when there is no one to show', async () => {
    mockFetch({ 'GET /api/users/scouts': { body: [] } });
    renderDiscover();
    expect(await screen.findByText('No scouts found. Check back later!')).toBeInTheDocument();
  });
});
