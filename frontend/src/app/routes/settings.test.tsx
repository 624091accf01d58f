import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { authKeys } from '@/features/auth/api/auth-keys';
import type { Settings } from '@/features/settings/api';
import { browserTimeZone } from '@/lib/time-zone';
import { mockFetch, type MockResponse } from '@/testing/fetch-mock';
import { LocationProbe, renderRoutes, scout } from '@/testing/render';

import SettingsPage from './settings';

const settings: Settings = {
  emailNotifications: true,
  voteNotifications: true,
  nominationNotifications: true,
  voteEmails: true,
  nominationEmails: true,
  weeklyDigest: true,
  profileVisibility: 'public',
  allowDiscoverability: true,
  twoFactorEnabled: false,
  passwordChangedAt: null,
};

function renderSettings() {
  return renderRoutes(
    [
      { path: '/settings', element: <SettingsPage /> },
      { path: '*', element: <LocationProbe /> },
    ],
    { path: '/settings', user: { ...scout, email: 'jane@example.com' } },
  );
}

/** Holds the answers to `method` requests until `release` is called. */
function holdAnswers(fetchMock: ReturnType<typeof mockFetch>['fetchMock'], method: string) {
  const answer = fetchMock.getMockImplementation()!;
  let release!: () => void;
  const gate = new Promise<void>((done) => (release = done));
  fetchMock.mockImplementation(async (input, init) => {
    const sent = input instanceof Request ? input.method : (init?.method ?? 'GET');
    if (sent === method) await gate;
    return answer(input, init);
  });
  return release;
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('Settings: account information', () => {
  it('shows the username and email read-only', async () => {
    mockFetch({ 'GET /api/settings': { body: settings } });
    renderSettings();
    expect(screen.getByLabelText('Username')).toHaveValue('jdoe');
    expect(screen.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Email')).toHaveValue('jane@example.com');
    expect(
      screen.getByText(
        'Username and email cannot be changed. Contact support if you need assistance.',
      ),
    ).toBeInTheDocument();
  });
});

describe('Settings: change password', () => {
  async function fill(current: string, next: string, confirm: string) {
    if (current) await userEvent.type(screen.getByLabelText('Current Password'), current);
    if (next) await userEvent.type(screen.getByLabelText('New Password'), next);
    if (confirm) await userEvent.type(screen.getByLabelText('Confirm New Password'), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
  }

  it('checks that the passwords match before their length', async () => {
    const { requests } = mockFetch({ 'GET /api/settings': { body: settings } });
    renderSettings();
    await fill('old-pass', 'abc', 'abd');
    expect(await screen.findByText('New passwords do not match')).toBeInTheDocument();
    expect(screen.queryByText('Password must be at least 6 characters')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Confirm New Password')).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(screen.getByLabelText('Confirm New Password'));
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.queryByText('New passwords do not match')).not.toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('sends the current password unchecked, then confirms and clears the fields', async () => {
    const { requests } = mockFetch({
      'GET /api/settings': { body: settings },
      'PUT /api/settings/password': { body: { ...settings, passwordChangedAt: '2025-01-01' } },
    });
    renderSettings();
    await fill('', 'new-secret', 'new-secret');

    expect(await screen.findByText('Password Updated')).toBeInTheDocument();
    expect(screen.getByText('Your password has been successfully changed.')).toBeInTheDocument();
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.body).toEqual({ currentPassword: '', newPassword: 'new-secret' });
    expect(screen.getByLabelText('New Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm New Password')).toHaveValue('');
  });

  it("shows the server's message, or its own when there is none", async () => {
    let answer: MockResponse = {
      status: 400,
      body: { message: 'Current password is incorrect', code: 'validation_error' },
    };
    mockFetch({
      'GET /api/settings': { body: settings },
      'PUT /api/settings/password': () => answer,
    });
    renderSettings();
    await fill('wrong', 'new-secret', 'new-secret');
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveValue('new-secret');

    answer = { status: 502, body: 'Bad gateway' };
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Failed to update password')).toBeInTheDocument();
  });
});

describe('Settings: notification and privacy toggles', () => {
  it('flips a toggle at once and saves that one field', async () => {
    const { requests, fetchMock } = mockFetch({
      'GET /api/settings': { body: settings },
      'PUT /api/settings/notifications': { body: { ...settings, voteNotifications: false } },
    });
    const release = holdAnswers(fetchMock, 'PUT');
    renderSettings();
    const toggle = await screen.findByRole('switch', { name: 'Vote Notifications' });
    expect(toggle).toHaveAttribute('aria-checked', 'true');

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(screen.queryByText('Settings Updated')).not.toBeInTheDocument();

    await act(async () => release());
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    const puts = requests.filter((request) => request.method === 'PUT');
    expect(puts.map((request) => request.body)).toEqual([{ voteNotifications: false }]);
    expect(screen.getByText('Your notification preferences have been saved.')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'false');
  });

  it('shows the Weekly Digest toggle beside the others and saves weeklyDigest', async () => {
    const { requests } = mockFetch({
      'GET /api/settings': { body: settings },
      'PUT /api/settings/notifications': { body: { ...settings, weeklyDigest: false } },
    });
    renderSettings();
    const toggle = await screen.findByRole('switch', { name: 'Weekly Digest' });
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    const puts = requests.filter((request) => request.method === 'PUT');
    expect(puts.map((request) => request.body)).toEqual([{ weeklyDigest: false }]);
    expect(toggle).toHaveAttribute('aria-checked', 'false');
  });

  it('keeps the emails of each kind apart from its notifications in the app', async () => {
    const { requests } = mockFetch({
      'GET /api/settings': { body: { ...settings, voteNotifications: false } },
      'PUT /api/settings/notifications': {
        body: { ...settings, voteNotifications: false, voteEmails: false },
      },
    });
    renderSettings();
    const emails = await screen.findByRole('switch', { name: 'Vote Emails' });
    expect(emails).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('switch', { name: 'Vote Notifications' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    expect(screen.getByRole('switch', { name: 'Nomination Emails' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await userEvent.click(emails);
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    const puts = requests.filter((request) => request.method === 'PUT');
    expect(puts.map((request) => request.body)).toEqual([{ voteEmails: false }]);
    expect(emails).toHaveAttribute('aria-checked', 'false');
  });

  it('flips a toggle back when its save fails', async () => {
    mockFetch({
      'GET /api/settings': { body: settings },
      'PUT /api/settings/notifications': { status: 500, body: 'boom' },
    });
    renderSettings();
    const toggle = await screen.findByRole('switch', { name: 'Email Notifications' });
    await userEvent.click(toggle);

    expect(await screen.findByText('Failed to update notification settings')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
  });

  it('saves the profile visibility on its own and reverts it on failure', async () => {
    let answer: MockResponse = { body: { ...settings, profileVisibility: 'private' } };
    const { requests } = mockFetch({
      'GET /api/settings': { body: settings },
      'PUT /api/settings/privacy': () => answer,
    });
    renderSettings();
    await userEvent.click(await screen.findByRole('radio', { name: /Private/ }));
    expect(await screen.findByText('Privacy Settings Updated')).toBeInTheDocument();
    expect(screen.getByText('Your privacy preferences have been saved.')).toBeInTheDocument();
    expect(requests.at(-1)?.body).toEqual({ profileVisibility: 'private' });
    expect(screen.getByRole('radio', { name: /Private/ })).toBeChecked();

    answer = { status: 400, body: { message: 'Nope', code: 'validation_error' } };
    await userEvent.click(screen.getByRole('switch', { name: 'Allow Discoverability' }));
    expect(requests.at(-1)?.body).toEqual({ allowDiscoverability: false });
    expect(await screen.findByText('Failed to update privacy settings')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Allow Discoverability' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });
});

describe('Settings: delete account', () => {
  it('asks first, then deletes, signs out and leaves', async () => {
    const { requests } = mockFetch({
      'GET /api/settings': { body: settings },
      'DELETE /api/settings/account': { status: 204 },
    });
    const { queryClient } = renderSettings();
    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you absolutely sure?' });
    expect(
      within(dialog).getByText(
        'This action cannot be undone. This will permanently delete your account, remove all your nominations, votes, and profile data from our servers.',
      ),
    ).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete my account' }));

    expect(await screen.findByText('Account Deleted')).toBeInTheDocument();
    expect(screen.getByText('Your account has been permanently deleted.')).toBeInTheDocument();
    // React Router renders a navigation as a transition: it may land after the toast shows.
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(queryClient.getQueryData(authKeys.me())).toBeNull();
    expect(queryClient.getQueryData(['settings', 'me'])).toBeUndefined();
  });

  it('says so when the account could not be deleted', async () => {
    mockFetch({
      'GET /api/settings': { body: settings },
      'DELETE /api/settings/account': { status: 500, body: 'boom' },
    });
    renderSettings();
    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete my account' }));
    expect(await screen.findByText('Failed to delete account')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('Settings: time zone', () => {
  it("shows the browser's zone until one is saved, and saves the one chosen", async () => {
    const { requests } = mockFetch({
      'GET /api/settings': { body: settings },
      'PUT /api/settings/time-zone': { body: { ...scout, timeZone: 'Asia/Tokyo' } },
    });
    renderSettings();
    const select = await screen.findByLabelText('Your time zone');
    expect(select).toHaveValue(browserTimeZone() || 'UTC');
    expect(screen.getByText(/Not saved yet/)).toBeInTheDocument();

    await userEvent.selectOptions(select, 'Asia/Tokyo');

    expect(await screen.findByText('Time zone saved')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ timeZone: 'Asia/Tokyo' });
  });
});

describe('Settings: profiles you manage', () => {
  it('brings back a removed profile within the 30 days, and accepts an invitation', async () => {
    const { requests } = mockFetch({
      'GET /api/settings': { body: settings },
      'GET /api/me/managed-players': {
        body: [
          {
            playerId: 7,
            name: 'Mia Jones',
            nominationId: null,
            managedBy: 'family',
            removedAt: '2026-01-01T10:00:00Z',
            restoreUntil: '2026-01-31T10:00:00Z',
            restorable: true,
            invited: false,
          },
          {
            playerId: 8,
            name: 'Leo Costa',
            nominationId: 3,
            managedBy: 'family',
            removedAt: null,
            restoreUntil: null,
            restorable: false,
            invited: true,
          },
        ],
      },
      'POST /api/players/7/controls/restore': { body: {} },
      'POST /api/players/8/controls/accept': { body: {} },
    });
    renderSettings();
    const section = await screen.findByRole('region', { name: 'Profiles you manage' });
    expect(within(section).getByText(/You can bring it back until 31 Jan 2026/)).toBeVisible();

    await userEvent.click(within(section).getByRole('button', { name: 'Bring the profile back' }));
    await waitFor(() =>
      expect(requests.some((r) => r.url === '/api/players/7/controls/restore')).toBe(true),
    );
    await userEvent.click(within(section).getByRole('button', { name: 'Accept the controls' }));
    await waitFor(() =>
      expect(requests.some((r) => r.url === '/api/players/8/controls/accept')).toBe(true),
    );
  });
});
