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
    } else if (field === 'birthYear') {
      await userEvent.selectOptions(screen.getByLabelText('Year of birth'), value!);
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
    expect(screen.getByText('Year of birth is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('asks the year of birth with no year selected and nothing said of which years pass', () => {
    mockFetch({});
    renderRegister();
    const select = screen.getByLabelText<HTMLSelectElement>('Year of birth');
    expect(select.value).toBe('');
    const options = within(select).getAllByRole<HTMLOptionElement>('option');
    expect(options[0].textContent).toBe('Select a year');
    expect(options.filter((option) => option.selected)).toEqual([options[0]]);
    // Every year down to 1900, this one first: the list itself hints at no limit.
    expect(options[1].textContent).toBe(String(new Date().getFullYear()));
    expect(options.at(-1)!.textContent).toBe('1900');
    // Nothing around the question speaks of an age.
    const around = document.body.textContent!.replace(select.textContent!, '');
    expect(around).not.toMatch(/\b(13|ages?|aged|old|older|over)\b/i);
  });

  it('gives way to the refusal under 13, naming no field', async () => {
    const { requests } = mockFetch({
      'POST /api/auth/register': {
        status: 403,
        body: {
          message: 'ScoutVote accounts are for people aged 13 and over.',
          code: 'under_minimum_age',
        },
      },
    });
    renderRegister();
    await fill({
      username: 'kiddo',
      name: 'K',
      email: 'k@example.com',
      password: 'secret1',
      birthYear: '2016',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^ScoutVote accounts are for people aged 13 and over\.$/,
    );
    // The form is gone: no year to try again in it.
    expect(screen.queryByLabelText('Year of birth')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
    expect(requests).toHaveLength(1);
    expect(requests[0].body).toMatchObject({ birthYear: 2016 });
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

  it('registers with the referral code, saves the sport and goes to returnTo', async () => {
    const { requests } = mockFetch({ 'POST /api/auth/register': { status: 201, body: scout } });
    const { queryClient } = renderRegister();
    await fill({
      username: 'jdoe',
      name: 'Jane Doe',
      email: 'jane@example.com',
      password: 'secret1',
      favoriteSport: 'soccer',
      birthYear: '1990',
      referralCode: 'FRIEND',
    });

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/results$/);
    expect(requests[0].body).toEqual({
      username: 'jdoe',
      password: 'secret1',
      name: 'Jane Doe',
      email: 'jane@example.com',
      favoriteSport: 'soccer',
      birthYear: 1990,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      referralCode: 'FRIEND',
    });
    expect(screen.getByText('Welcome to ScoutVote, Jane Doe!')).toBeInTheDocument();
    expect(queryClient.getQueryData(authKeys.me())).toEqual(scout);
    expect(useSportStore.getState().sport).toBe('soccer');
    expect(JSON.parse(localStorage.getItem('selectedSport')!).state.sport).toBe('soccer');
  });

  it("fills in the code of a referral link's ?ref= and sends it", async () => {
    const { requests } = mockFetch({ 'POST /api/auth/register': { status: 201, body: scout } });
    renderRegister('/register?ref=AB12CD34EF');
    expect(screen.getByLabelText<HTMLInputElement>('Referral code (optional)').value).toBe(
      'AB12CD34EF',
    );
    await fill({
      username: 'jdoe',
      name: 'Jane Doe',
      email: 'jane@example.com',
      password: 'secret1',
      birthYear: '1990',
    });
    await waitFor(() => expect(requests).toHaveLength(1));
    expect((requests[0].body as { referralCode: string }).referralCode).toBe('AB12CD34EF');
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
    await fill({
      username: 'jdoe',
      name: 'J',
      email: 'j@example.com',
      password: 'secret1',
      birthYear: '1990',
    });

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
    await fill({
      username: 'jdoe',
      name: 'J',
      email: 'j@example.com',
      password: 'secret1',
      birthYear: '1990',
    });
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
