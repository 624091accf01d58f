import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { routes } from '@/app/router';
import { mockFetch } from '@/testing/fetch-mock';
import { renderRoutes } from '@/testing/render';

import { nominationIdOf } from '../api/takedown';

beforeEach(() => {
  document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('takedown request', () => {
  it('reads a player page address or number', () => {
    expect(nominationIdOf('https://scoutvote.example/nominations/12')).toBe(12);
    expect(nominationIdOf('/nominations/7/')).toBe(7);
    expect(nominationIdOf(' 42 ')).toBe(42);
    expect(nominationIdOf('the girl with the red boots')).toBeNull();
  });

  it('is sent without an account, with the CSRF token, and shows the reference', async () => {
    const { requests } = mockFetch({
      'GET /api/auth/csrf': {
        body: { csrfToken: 'abc' },
        headers: { 'Set-Cookie': 'csrftoken=abc' },
      },
      'POST /api/takedown-requests': {
        status: 201,
        body: { reference: 'TD-12AB34CD', status: 'unconfirmed' },
      },
    });
    renderRoutes(routes, { path: '/takedown?nomination=12', user: null });
    const page = await screen.findByLabelText(/Which player/, {}, { timeout: 10_000 });
    expect(page).toHaveValue(`${window.location.origin}/nominations/12`);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Tell us who you are')).toBeVisible();
    const who = screen.getByRole('group', { name: 'Who are you?' });
    expect(who).toHaveAccessibleDescription('Tell us who you are');
    expect(screen.getByLabelText('I am the athlete')).toHaveFocus();
    expect(screen.getByLabelText('Remove the profile')).toBeChecked();
    expect(screen.getByText('Invalid email address')).toBeVisible();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.click(screen.getByLabelText('I am a parent or guardian of the athlete'));
    await user.click(screen.getByLabelText('Correct the profile'));
    await user.type(screen.getByLabelText('Your email address'), 'parent@example.com');
    await user.type(screen.getByLabelText(/What should change/), 'Wrong club');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByText('TD-12AB34CD')).toBeVisible();
    const status = screen.getByText('Confirm your request from your email').closest('div');
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent('We have sent a link to parent@example.com');
    expect(await screen.findByText('Check your email')).toBeVisible();
    // The confirmation takes the form's place: it is brought into view and focused.
    const received = status as HTMLElement;
    expect(received).toHaveFocus();
    expect(received.scrollIntoView).toHaveBeenCalled();
    const sent = requests.find((request) => request.method === 'POST');
    expect(sent?.body).toEqual({
      nominationId: 12,
      relationship: 'parent_or_guardian',
      kind: 'correct',
      contactEmail: 'parent@example.com',
      details: 'Wrong club',
    });
    await waitFor(() => expect(sent?.headers['x-csrftoken']).toBeTruthy());
  }, 20_000);

  it('confirms from the emailed link with one button, not by the visit', async () => {
    const { requests } = mockFetch({
      'GET /api/auth/csrf': {
        body: { csrfToken: 'abc' },
        headers: { 'Set-Cookie': 'csrftoken=abc' },
      },
      'POST /api/takedown-requests/confirm': {
        body: { reference: 'TD-12AB34CD', status: 'pending', playerHidden: true },
      },
    });
    renderRoutes(routes, { path: '/takedown/confirm?token=12:stamp:sig', user: null });
    const button = await screen.findByRole(
      'button',
      { name: 'Confirm request' },
      { timeout: 10_000 },
    );
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
    await userEvent.setup().click(button);

    expect(await screen.findByText('Your request is confirmed')).toBeVisible();
    expect(screen.getByText(/The profile is hidden from the site/)).toBeVisible();
    const sent = requests.find((request) => request.method === 'POST');
    expect(sent?.body).toEqual({ token: '12:stamp:sig' });
  }, 20_000);

  it('says why an expired link is refused', async () => {
    const expired = 'This confirmation link has expired. Please send your request again.';
    mockFetch({
      'GET /api/auth/csrf': {
        body: { csrfToken: 'abc' },
        headers: { 'Set-Cookie': 'csrftoken=abc' },
      },
      'POST /api/takedown-requests/confirm': {
        status: 400,
        body: { message: expired, code: 'link_expired' },
      },
    });
    renderRoutes(routes, { path: '/takedown/confirm?token=old', user: null });
    const button = await screen.findByRole(
      'button',
      { name: 'Confirm request' },
      { timeout: 10_000 },
    );
    await userEvent.setup().click(button);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(expired);
    expect(within(alert).getByRole('link', { name: 'Send a new request' })).toHaveAttribute(
      'href',
      '/takedown',
    );
  }, 20_000);
});
