import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockFetch } from '@/testing/fetch-mock';
import { renderRoutes, scout } from '@/testing/render';

import { ProfileStreak } from './profile-streak';

function renderStreak() {
  return renderRoutes([{ path: '/', element: <ProfileStreak userId={12} /> }], { user: scout });
}

describe('ProfileStreak', () => {
  it('shows the streak its adult chose to show', async () => {
    mockFetch({ 'GET /api/users/12/streak': { body: { current: 4, longest: 9 } } });
    renderStreak();
    expect(await screen.findByText('4-day streak (longest 9)')).toBeInTheDocument();
  });

  it('shows nothing for a private streak', async () => {
    const { requests } = mockFetch({
      'GET /api/users/12/streak': {
        status: 404,
        body: { message: 'Streak not shown', code: 'streak_not_shown' },
      },
    });
    renderStreak();
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(screen.queryByText(/streak/)).not.toBeInTheDocument();
  });
});
