/// <reference lib="webworker" />
/**
 * The app's service worker. It precaches the build (the app shell and its assets) and answers
 * navigations with the shell, so the app opens without a network; it never stores an API answer,
 * a websocket, an admin page or an upload. It also shows the server's web push notifications.
 *
 * A new build installs next to the running one and waits: the page offers "Reload" and sends
 * SKIP_WAITING when the member accepts, so no tab runs a shell and assets of two builds at once.
 */
import {
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute, setCatchHandler } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';

import { files, prefixes } from '../../project/server_paths.json';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** Where Django serves the build; the worker itself is served from / to control every page. */
const STATIC = '/static/';
const SHELL = `${STATIC}index.html`;
const OFFLINE_PAGE = `${STATIC}offline.html`;
const ICON = `${STATIC}pwa-192.png`;

/** A path written into a pattern as itself (the list's names hold dots). */
function literal(path: string): string {
  return path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Navigations the shell must not answer: the paths Django answers itself (the API and the live
 * socket, its own pages such as the admin's and the email links', the uploads, the static files
 * and the worker's own files). The list is project/server_paths.json, which the server's
 * catch-all (project/urls.py) reads too, so the two cannot disagree.
 */
const NOT_THE_SHELL = [
  ...prefixes.map((prefix) => new RegExp(`^/${literal(prefix)}(/|$)`)),
  ...files.map((file) => new RegExp(`^/${literal(file)}$`)),
];

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(async () => (await matchPrecache(SHELL)) ?? (await fetch(SHELL)), {
    denylist: NOT_THE_SHELL,
  }),
);

// The navigations the shell does not answer go to the network and are never stored; one that
// fails there (no network) gets the offline page below. Every other request (the API, uploads)
// matches no route and goes to the network as if there were no worker.
registerRoute(({ request }) => request.mode === 'navigate', new NetworkOnly());

setCatchHandler(async ({ request }) => {
  if (request.mode === 'navigate') {
    const page = await matchPrecache(OFFLINE_PAGE);
    if (page) return page;
  }
  return Response.error();
});

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

type PushPayload = { title?: string; body?: string; url?: string; tag?: string };

function readPayload(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    const value: unknown = event.data.json();
    return typeof value === 'object' && value !== null ? (value as PushPayload) : {};
  } catch {
    return { body: event.data.text() };
  }
}

/** Only a path on this site is followed, so a payload cannot send a click elsewhere. */
function sameOriginUrl(url: string | undefined): string {
  try {
    const target = new URL(url ?? '/', self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('push', (event: PushEvent) => {
  const payload = readPayload(event);
  const options: NotificationOptions = {
    body: payload.body ?? '',
    icon: ICON,
    badge: ICON,
    data: { url: sameOriginUrl(payload.url) },
  };
  if (payload.tag) options.tag = payload.tag;
  event.waitUntil(self.registration.showNotification(payload.title ?? 'ScoutVote', options));
});

self.addEventListener('notificationclick', (event: NotificationEvent) => {
  event.notification.close();
  const url = sameOriginUrl((event.notification.data as { url?: string } | null)?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        try {
          const focused = await open.focus();
          // navigate() needs a tab this worker controls; otherwise a new window opens below.
          await focused.navigate(url);
          return;
        } catch {
          // Falls through to a new window.
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
