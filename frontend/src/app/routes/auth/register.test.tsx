import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { authKeys } from '@/features/auth/api/auth-keys';
import { useSportStore } from '@/stores/sport';
import { mockFetch } from '@/testing/fetch-mock';
import { LocationProbe, renderRoutes, scout } from '@/testing/render';

import RegisterPage from './register';

function renderRegister(path = '/register?returnTo=%2Fresults') {
  return renderRoutes(
    [
      { path: '/register', element: <RegisterPage /> },
      { path: '*', element: <LocationProbe /> },
    ],
    { path, user: null },
  );
}

async function fill(values: Partial<Record<string, string>>) {
  const labels: Record<string, string> = {
    username: 'Username',
    name: 'Full name',
    email: 'Email',
    password: 'Password',
    referralCode: 'Referral code (optional)',
  };
  for (const [field, value] of Object.entries(values)) {
    if (field === 'favoriteSport') {
      await userEvent.selectOptions(screen.getByLabelText('Favorite sport'), value!);
    } else {
      await userEvent.type(screen.getByLabelText(labels[field]), value!);
    }
  }
  await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('RegisterPage', () => {
  it("shows the specification's validation messages", async () => {
    const { requests } = mockFetch({});
    renderRegister();
    await fill({ username: 'ab', email: 'not-an-email', password: '12345' });
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('offers the five sports, preselecting the current one', () => {
    mockFetch({});
    useSportStore.setState({ sport: 'baseball' });
    renderRegister();
    const select = screen.getByLabelText<HTMLSelectElement>('Favorite sport');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Football', 'Basketball', 'Baseball', 'Soccer', 'Hockey']);
    expect(select.value).toBe('baseball');
  });

  it('registers without the referral code, saves the sport and goes to returnTo', async () => {
    const { requests } = mockFetch({ 'POST /api/auth/register': { status: 201, body: scout } });
    const { queryClient } = renderRegister();
    await fill({
      username: 'jdoe',
      name: 'Jane Doe',
      email: 'jane@example.com',
      password: 'secret1',
      favoriteSport: 'soccer',
      referralCode: 'FRIEND',
    });

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/results$/);
    expect(requests[0].body).toEqual({
      username: 'jdoe',
      password: 'secret1',
      name: 'Jane Doe',
      email: 'jane@example.com',
      favoriteSport: 'soccer',
    });
    expect(screen.getByText('Welcome to ScoutVote, Jane Doe!')).toBeInTheDocument();
    expect(queryClient.getQueryData(authKeys.me())).toEqual(scout);
    expect(useSportStore.getState().sport).toBe('soccer');
    expect(JSON.parse(localStorage.getItem('selectedSport')!).state.sport).toBe('soccer');
  });

  it("puts the server's field errors on the fields, with no toast repeating them", async () => {
    mockFetch({
      'POST /api/auth/register': {
        status: 409,
        body: {
          message: 'That username is already taken',
          code: 'conflict',
          fields: { username: 'That username is already taken' },
        },
      },
    });
    renderRegister();
    await fill({ username: 'jdoe', name: 'J', email: 'j@example.com', password: 'secret1' });

    await waitFor(() =>
      expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(screen.getAllByText('That username is already taken')).toHaveLength(1);
    expect(screen.queryByText('Registration failed')).not.toBeInTheDocument();
    expect(useSportStore.getState().sport).toBe('football');
  });

  it('falls back to "Could not create account"', async () => {
    mockFetch({ 'POST /api/auth/register': { status: 502 } });
    renderRegister();
    await fill({ username: 'jdoe', name: 'J', email: 'j@example.com', password: 'secret1' });
    expect(await screen.findByText('Could not create account')).toBeInTheDocument();
  });

  it('links to sign in, keeping returnTo', () => {
    mockFetch({});
    renderRegister();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?returnTo=%2Fresults',
    );
  });
});
