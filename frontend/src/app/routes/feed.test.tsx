import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockFetch } from '@/testing/fetch-mock';
import { renderRoutes } from '@/testing/render';

import FeedPage from './feed';

describe('FeedPage', () => {
  it('asks a signed-out visitor to sign in and come back', async () => {
    const { requests } = mockFetch({});
    renderRoutes([{ path: '/feed', element: <FeedPage /> }], { path: '/feed', user: null });
    expect(await screen.findByText('Sign in to see the feed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?returnTo=%2Ffeed',
    );
    expect(requests).toHaveLength(0);
  });
});
