/**
 * Web push for this device: the server's VAPID key and this browser's subscription, saved on the
 * server so it can push to it. The three calls are typed here from the server's contract (the
 * generated schema does not list them on this branch); they go through the app's own session
 * middleware, so they carry the CSRF token and fail as an `ApiError` like every other call.
 */
import createClient from 'openapi-fetch';

import { sessionMiddleware, unwrap } from '@/lib/api-client';

export type PushKey = { publicKey: string | null };

export type PushSubscriptionBody = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  expirationTime: number | null;
};

export type SavedPushSubscription = { id: number; endpoint: string; createdAt: string };

type Json<T> = { content: { 'application/json': T } };
type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };

/** The push paths in the shape openapi-typescript generates, for openapi-fetch. */
type PushPaths = {
  '/api/push/key': {
    get: {
      parameters: NoParameters;
      requestBody?: never;
      responses: { 200: { headers: Record<string, unknown> } & Json<PushKey> };
    };
  };
  '/api/push/subscriptions': {
    post: {
      parameters: NoParameters;
      requestBody: Json<PushSubscriptionBody>;
      responses: {
        200: { headers: Record<string, unknown> } & Json<SavedPushSubscription>;
        201: { headers: Record<string, unknown> } & Json<SavedPushSubscription>;
      };
    };
  };
  '/api/push/subscriptions/{id}': {
    delete: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody?: never;
      responses: { 204: { headers: Record<string, unknown>; content?: never } };
    };
  };
};

const pushApi = createClient<PushPaths>({
  baseUrl: typeof location === 'undefined' ? '' : location.origin,
  credentials: 'include',
  headers: { Accept: 'application/json' },
  fetch: (request) => globalThis.fetch(request),
});
pushApi.use(sessionMiddleware);

export function getPushKey(signal?: AbortSignal): Promise<PushKey> {
  return unwrap(pushApi.GET('/api/push/key', { signal }));
}

export function savePushSubscription(body: PushSubscriptionBody): Promise<SavedPushSubscription> {
  return unwrap(pushApi.POST('/api/push/subscriptions', { body }));
}

export function deletePushSubscription(id: number): Promise<void> {
  return unwrap(pushApi.DELETE('/api/push/subscriptions/{id}', { params: { path: { id } } }));
}

const STORAGE_PREFIX = 'scoutvote:push-subscription:';

/** The server's id of this browser's subscription, kept by endpoint to delete it later. */
export const savedSubscriptionId = {
  get(endpoint: string): number | null {
    try {
      const value = Number(localStorage.getItem(STORAGE_PREFIX + endpoint));
      return Number.isInteger(value) && value > 0 ? value : null;
    } catch {
      return null;
    }
  },
  set(endpoint: string, id: number) {
    try {
      localStorage.setItem(STORAGE_PREFIX + endpoint, String(id));
    } catch {
      // Storage refused (private mode): the subscription works; turning it off deletes it by
      // unsubscribing, and the server drops it at the push service's next 404/410.
    }
  },
  remove(endpoint: string) {
    try {
      localStorage.removeItem(STORAGE_PREFIX + endpoint);
    } catch {
      // As above.
    }
  },
};
