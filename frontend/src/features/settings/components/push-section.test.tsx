import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { mockFetch, type MockResponse } from '@/testing/fetch-mock';
import { renderRoutes } from '@/testing/render';

import { PushSection } from './push-section';

// A VAPID public key: 65 bytes (an uncompressed P-256 point), base64url.
const PUBLIC_KEY =
  'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const ENDPOINT = 'https://push.example.com/send/abc';

/** A stand-in for the browser's push side: permission, service worker and PushManager. */
function fakeBrowser({
  permission = 'default' as NotificationPermission,
  answer = 'granted',
} = {}) {
  let current: PushSubscription | null = null;
  const unsubscribe = vi.fn(async () => {
    current = null;
    return true;
  });
  const makeSubscription = (key: ArrayBuffer) =>
    ({
      endpoint: ENDPOINT,
      expirationTime: null,
      options: { applicationServerKey: key, userVisibleOnly: true },
      toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'p256dh-key', auth: 'auth-key' } }),
      unsubscribe,
    }) as unknown as PushSubscription;
  const subscribe = vi.fn(async (options: PushSubscriptionOptionsInit) => {
    current = makeSubscription((options.applicationServerKey as Uint8Array).slice().buffer);
    return current;
  });
  const registration = {
    pushManager: { getSubscription: async () => current, subscribe },
  } as unknown as ServiceWorkerRegistration;

  const requestPermission = vi.fn(async () => {
    notification.permission = answer as NotificationPermission;
    return notification.permission;
  });
  const notification = { permission, requestPermission };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
  });
  return { requestPermission, subscribe, unsubscribe, notification };
}

function serverWith(publicKey: string | null, extra: Record<string, MockResponse> = {}) {
  return mockFetch({
    'GET /api/push/key': { body: { publicKey } },
    'POST /api/push/subscriptions': {
      status: 201,
      body: { id: 7, endpoint: ENDPOINT, createdAt: '2026-01-01T00:00:00Z' },
    },
    'DELETE /api/push/subscriptions/7': { status: 204 },
    ...extra,
  });
}

const renderSection = () =>
  renderRoutes([{ path: '/', element: <PushSection /> }], { path: '/', user: null });

/** Whether the switch is there and can be used (the key and the browser's state are read). */
function switchUsable(): boolean {
  const control = screen.queryByRole('switch');
  return control !== null && !(control as HTMLButtonElement).disabled;
}

const pushSwitch = () => screen.findByRole('switch', { name: 'Push notifications' });

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
  localStorage.clear();
});

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Push notifications on this device', () => {
  it('does not ask for permission when the page opens', async () => {
    const browser = fakeBrowser();
    serverWith(PUBLIC_KEY);
    renderSection();
    expect(await pushSwitch()).not.toBeChecked();
    await waitFor(() => expect(switchUsable()).toBe(true));
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.subscribe).not.toHaveBeenCalled();
  });

  it('asks for permission on turning on, subscribes with the server key and saves it', async () => {
    const browser = fakeBrowser();
    const { requests } = serverWith(PUBLIC_KEY);
    renderSection();
    await waitFor(() => expect(switchUsable()).toBe(true));

    await userEvent.click(await pushSwitch());

    await waitFor(() => expect(screen.getByRole('switch')).toBeChecked());
    expect(browser.requestPermission).toHaveBeenCalledOnce();
    const options = browser.subscribe.mock.calls[0][0];
    expect(options.userVisibleOnly).toBe(true);
    expect((options.applicationServerKey as Uint8Array).byteLength).toBe(65);
    const saved = requests.find((r) => r.method === 'POST');
    expect(saved).toMatchObject({
      url: '/api/push/subscriptions',
      headers: expect.objectContaining({ 'x-csrftoken': 't' }),
      body: {
        endpoint: ENDPOINT,
        keys: { p256dh: 'p256dh-key', auth: 'auth-key' },
        expirationTime: null,
      },
    });
    expect(await screen.findByText('Push notifications are on')).toBeInTheDocument();
  });

  it('turning off deletes the saved subscription and unsubscribes', async () => {
    const browser = fakeBrowser();
    const { requests } = serverWith(PUBLIC_KEY);
    renderSection();
    await waitFor(() => expect(switchUsable()).toBe(true));
    await userEvent.click(await pushSwitch());
    await waitFor(() => expect(screen.getByRole('switch')).toBeChecked());

    await userEvent.click(screen.getByRole('switch'));

    await waitFor(() => expect(screen.getByRole('switch')).not.toBeChecked());
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/push/subscriptions/7',
    ]);
    expect(browser.unsubscribe).toHaveBeenCalledOnce();
    expect(browser.requestPermission).toHaveBeenCalledOnce();
  });

  it('stays off and explains how to unblock when the member blocks the prompt', async () => {
    const browser = fakeBrowser({ answer: 'denied' });
    const { requests } = serverWith(PUBLIC_KEY);
    renderSection();
    await waitFor(() => expect(switchUsable()).toBe(true));

    await userEvent.click(await pushSwitch());

    expect(await screen.findByText('Notifications are blocked for this site.')).toBeInTheDocument();
    expect(screen.getByText(/set Notifications to Allow/)).toBeInTheDocument();
    expect(screen.getByRole('switch')).not.toBeChecked();
    expect(screen.getByRole('switch')).toBeDisabled();
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it.each([
    [
      'NotAllowedError',
      'Registration failed - permission denied',
      "Your browser blocked notifications for this site. Allow them in the browser's site settings, then try again.",
    ],
    [
      'AbortError',
      'Registration failed - push service error',
      'This browser cannot receive push notifications (its push service is off or missing). Use a current Chrome, Edge, Firefox or Safari; on iPhone and iPad, add ScoutVote to your Home Screen first.',
    ],
    [
      'NotSupportedError',
      'Push subscription not supported',
      'This browser cannot receive push notifications (its push service is off or missing). Use a current Chrome, Edge, Firefox or Safari; on iPhone and iPad, add ScoutVote to your Home Screen first.',
    ],
  ])(
    "says what to do, not the browser's words, when the browser refuses to subscribe (%s)",
    async (name, raw, advice) => {
      const browser = fakeBrowser();
      browser.subscribe.mockRejectedValueOnce(new DOMException(raw, name));
      const { requests } = serverWith(PUBLIC_KEY);
      renderSection();
      await waitFor(() => expect(switchUsable()).toBe(true));

      await userEvent.click(await pushSwitch());

      expect(await screen.findByText(advice)).toBeInTheDocument();
      expect(screen.queryByText(raw)).not.toBeInTheDocument();
      await waitFor(() => expect(screen.getByRole('switch')).not.toBeChecked());
      expect(requests.some((r) => r.method === 'POST')).toBe(false);
    },
  );

  it('shows the blocked state at once when the browser already blocks notifications', async () => {
    const browser = fakeBrowser({ permission: 'denied' });
    serverWith(PUBLIC_KEY);
    renderSection();
    expect(await screen.findByText('Notifications are blocked for this site.')).toBeInTheDocument();
    expect(screen.getByRole('switch')).toBeDisabled();
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('says push is not set up when the server has no key', async () => {
    const browser = fakeBrowser();
    serverWith(null);
    renderSection();
    expect(
      await screen.findByText('Push notifications are not set up on this server.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('switch')).toBeDisabled();
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('says the browser cannot receive push without asking the server', async () => {
    vi.stubGlobal('Notification', undefined);
    Reflect.deleteProperty(window, 'Notification');
    const { requests } = serverWith(PUBLIC_KEY);
    renderSection();
    expect(
      await screen.findByText('This browser cannot receive push notifications.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('switch')).toBeDisabled();
    expect(requests).toEqual([]);
  });

  it('unsubscribes the browser again when the server refuses the subscription', async () => {
    const browser = fakeBrowser();
    serverWith(PUBLIC_KEY, {
      'POST /api/push/subscriptions': {
        status: 400,
        body: { message: 'Push endpoint must use https', code: 'bad_request' },
      },
    });
    renderSection();
    await waitFor(() => expect(switchUsable()).toBe(true));

    await userEvent.click(await pushSwitch());

    const alert = await screen.findByText('Push endpoint must use https');
    expect(within(alert.closest('li')!).getByText('Error')).toBeInTheDocument();
    expect(browser.unsubscribe).toHaveBeenCalledOnce();
    expect(screen.getByRole('switch')).not.toBeChecked();
  });
});
