import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { authKeys } from '@/features/auth/api/auth-keys';
import { SPORT_STORAGE_KEY, useSportStore } from '@/stores/sport';
import { mockFetch } from '@/testing/fetch-mock';
import { LocationProbe, renderRoutes, scout } from '@/testing/render';

import { safeReturnTo } from '@/features/auth/hooks/use-return-to';

import LoginPage from './login';

function renderLogin(path = '/login?returnTo=%2Fvote') {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '*', element: <LocationProbe /> },
    ],
    { path, user: null },
  );
}

async function submit(username: string, password: string) {
  if (username) await userEvent.type(screen.getByLabelText('Username'), username);
  if (password) await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('LoginPage', () => {
  it('goes straight on to returnTo when already signed in', async () => {
    mockFetch({});
    renderRoutes(
      [
        { path: '/login', element: <LoginPage /> },
        { path: '*', element: <LocationProbe /> },
      ],
      { path: '/login?returnTo=%2Fresults', user: scout },
    );
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/results$/);
  });

  it('accepts only a same-origin path without control characters as returnTo', () => {
    expect(safeReturnTo('/vote?sport=hockey')).toBe('/vote?sport=hockey');
    for (const unsafe of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/a\u0000b',
      '/a\u007fb',
      '',
      null,
    ]) {
      expect(safeReturnTo(unsafe)).toBe('/');
    }
  });

  it('requires a username and a password', async () => {
    const { requests } = mockFetch({});
    renderLogin();
    await submit('', '');
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toHaveLength(0);
  });

  it('signs in, greets the user, stores the session and goes to returnTo', async () => {
    useSportStore.setState({ sport: 'hockey' });
    const { requests } = mockFetch({ 'POST /api/auth/login': { body: scout } });
    const { queryClient } = renderLogin();

    await submit('jdoe', 'secret1');

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/vote$/);
    expect(screen.getByText('Welcome back, Jane Doe!')).toBeInTheDocument();
    expect(queryClient.getQueryData(authKeys.me())).toEqual(scout);
    // The browser's time zone goes along (a teen account's quiet hours are kept in it).
    expect(requests[0].body).toEqual({
      username: 'jdoe',
      password: 'secret1',
      code: '',
      timeZone: zone,
    });
    expect(useSportStore.getState().sport).toBe('hockey');
  });

  it("stores the user's favourite sport when no sport is stored yet", async () => {
    expect(localStorage.getItem(SPORT_STORAGE_KEY)).toBeNull();
    mockFetch({ 'POST /api/auth/login': { body: { ...scout, favoriteSport: 'baseball' } } });
    renderLogin();
    await submit('jdoe', 'secret1');
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/vote$/);
    expect(useSportStore.getState().sport).toBe('baseball');
    expect(JSON.parse(localStorage.getItem(SPORT_STORAGE_KEY) ?? '{}')).toMatchObject({
      state: { sport: 'baseball' },
    });
  });

  it('keeps a stored sport choice over the favourite sport', async () => {
    useSportStore.getState().setSport('hockey');
    mockFetch({ 'POST /api/auth/login': { body: { ...scout, favoriteSport: 'baseball' } } });
    renderLogin();
    await submit('jdoe', 'secret1');
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/vote$/);
    expect(useSportStore.getState().sport).toBe('hockey');
  });

  it('goes home without returnTo, and ignores a returnTo to another site', async () => {
    mockFetch({ 'POST /api/auth/login': { body: scout } });
    renderLogin('/login?returnTo=%2F%2Fevil.example');
    await submit('jdoe', 'secret1');
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('asks for the authenticator code when the account has two-factor sign-in', async () => {
    const { requests } = mockFetch({
      'POST /api/auth/login': (request) =>
        (request.body as { code: string }).code
          ? { body: scout }
          : {
              status: 401,
              body: {
                message: 'Enter the code from your authenticator app',
                code: 'two_factor_required',
              },
            },
    });
    renderLogin();
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    await submit('jdoe', 'secret1');

    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveFocus();
    expect(screen.queryByText('Login failed')).not.toBeInTheDocument();
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/vote$/);
    expect(requests.map((request) => request.body)).toEqual([
      { username: 'jdoe', password: 'secret1', code: '', timeZone: zone },
      { username: 'jdoe', password: 'secret1', code: '123456', timeZone: zone },
    ]);
  });

  it('says a wrong code is not valid at the code field', async () => {
    const invalid = 'That code is not valid. Enter the current code from your authenticator app.';
    mockFetch({
      'POST /api/auth/login': (request) =>
        (request.body as { code: string }).code
          ? {
              status: 401,
              body: { message: invalid, code: 'invalid_code', fields: { code: invalid } },
            }
          : {
              status: 401,
              body: {
                message: 'Enter the code from your authenticator app',
                code: 'two_factor_required',
              },
            },
    });
    renderLogin();
    await submit('jdoe', 'secret1');
    const code = await screen.findByLabelText('Authentication code');
    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(code).toHaveAccessibleDescription(expect.stringContaining(invalid)));
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Invalid username or password')).not.toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });

  it('shows the server message when login fails', async () => {
    mockFetch({
      'POST /api/auth/login': {
        status: 401,
        body: { message: 'Invalid credentials', code: 'invalid_credentials' },
      },
    });
    renderLogin();
    await submit('jdoe', 'wrong');
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid credentials')).toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });

  it('falls back to its own message when the server sends no error body', async () => {
    mockFetch({ 'POST /api/auth/login': { status: 500, body: 'boom' } });
    renderLogin();
    await submit('jdoe', 'pw');
    expect(await screen.findByText('Invalid username or password')).toBeInTheDocument();
  });

  it('links to registration, keeping returnTo', () => {
    mockFetch({});
    renderLogin('/login?returnTo=%2Fnominations%2F4');
    expect(screen.getByRole('link', { name: 'Create one' })).toHaveAttribute(
      'href',
      '/register?returnTo=%2Fnominations%2F4',
    );
  });
});
