/**
 * Web push for this device: the server's VAPID key and this browser's subscription, saved on the
 * server so it can push to it. The calls go through the app's one client, typed by the generated
 * schema, so they carry the CSRF token and fail as an `ApiError` like every other call.
 */
import { api, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

export type PushKey = components['schemas']['PushKeyOut'];
export type PushSubscriptionBody = components['schemas']['PushSubscriptionIn'];
export type SavedPushSubscription = components['schemas']['PushSubscriptionOut'];

export function getPushKey(signal?: AbortSignal): Promise<PushKey> {
  return unwrap(api.GET('/api/push/key', { signal }));
}

export function savePushSubscription(body: PushSubscriptionBody): Promise<SavedPushSubscription> {
  return unwrap(api.POST('/api/push/subscriptions', { body }));
}

export function deletePushSubscription(id: number): Promise<void> {
  return unwrap(
    api.DELETE('/api/push/subscriptions/{subscription_id}', {
      params: { path: { subscription_id: id } },
    }),
  );
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
