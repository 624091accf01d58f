import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { ApiError, errorMessage } from '@/lib/api-client';
import { toast, type ToastInput } from '@/stores/toast';

import { settingsKeys } from '../api/keys';
import {
  deletePushSubscription,
  getPushKey,
  savedSubscriptionId,
  savePushSubscription,
} from '../api/push';

/** What the "Push notifications on this device" section shows. */
export type PushDeviceState =
  'unsupported' | 'loading' | 'key-error' | 'not-configured' | 'denied' | 'off' | 'on';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

type Device = { permission: NotificationPermission; subscribed: boolean };

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** This browser's side, read without asking anything: the permission and the subscription. */
async function readDevice(): Promise<Device> {
  const permission = Notification.permission;
  const subscription = permission === 'granted' ? await currentSubscription() : null;
  return {
    permission,
    subscribed: subscription !== null && savedSubscriptionId.get(subscription.endpoint) !== null,
  };
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current || current.byteLength !== wanted.byteLength) return false;
  const bytes = new Uint8Array(current);
  return bytes.every((byte, i) => byte === wanted[i]);
}

/** The browser's answer to the permission request when it is not "granted". */
export class PushPermissionError extends Error {
  readonly permission: NotificationPermission;

  constructor(permission: NotificationPermission) {
    super(`Notification permission: ${permission}`);
    this.name = 'PushPermissionError';
    this.permission = permission;
  }
}

/**
 * Turns push on for this device: asks the browser's permission (the only place it is asked),
 * subscribes with the server's key and saves the subscription on the server.
 */
async function turnOn(publicKey: string): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushPermissionError(permission);
  if (!(await navigator.serviceWorker.getRegistration())) {
    throw new Error(
      "The app's service worker is not running here: reload the page, then try again.",
    );
  }
  const registration = await navigator.serviceWorker.ready;
  const applicationServerKey = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with another key (the server's keys changed) cannot be pushed to.
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey,
  });
  const { keys } = subscription.toJSON();
  try {
    const saved = await savePushSubscription({
      endpoint: subscription.endpoint,
      keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
      expirationTime: subscription.expirationTime,
    });
    savedSubscriptionId.set(subscription.endpoint, saved.id);
  } catch (error) {
    // The server refused it: the browser keeps no subscription the server does not know.
    await subscription.unsubscribe().catch(() => undefined);
    throw error;
  }
}

/** Turns push off for this device: deletes the server's copy first, then unsubscribes. */
async function turnOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  const id = savedSubscriptionId.get(subscription.endpoint);
  if (id !== null) {
    try {
      await deletePushSubscription(id);
    } catch (error) {
      // Already gone on the server (deleted there, or the push service retired it).
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  await subscription.unsubscribe();
  savedSubscriptionId.remove(subscription.endpoint);
}

const BLOCKED = {
  variant: 'destructive',
  title: 'Notifications are blocked',
  description:
    "Your browser blocked notifications for this site. Allow them in the browser's site settings, then try again.",
} as const;

const UNSUPPORTED = {
  variant: 'destructive',
  title: 'Push notifications are not available',
  description:
    'This browser cannot receive push notifications (its push service is off or missing). Use a current Chrome, Edge, Firefox or Safari; on iPhone and iPad, add ScoutVote to your Home Screen first.',
} as const;

/**
 * What a failed change tells the member: what to do, never the browser's own wording
 * ("Registration failed - permission denied"). The browser refuses a subscription with
 * NotAllowedError when notifications are blocked, and with NotSupportedError or AbortError
 * ("push service error") when it has no push service to subscribe with.
 */
export function pushFailure(error: Error): ToastInput {
  if (error instanceof PushPermissionError) {
    return error.permission === 'denied'
      ? BLOCKED
      : { description: 'Push notifications stay off: the browser was not given permission.' };
  }
  if (error instanceof ApiError) {
    return {
      variant: 'destructive',
      description: errorMessage(error, 'Failed to update push notifications'),
    };
  }
  if (error instanceof DOMException) {
    if (error.name === 'NotAllowedError') return BLOCKED;
    if (error.name === 'NotSupportedError' || error.name === 'AbortError') return UNSUPPORTED;
    return { variant: 'destructive', description: 'Failed to update push notifications' };
  }
  // This module's own errors say what to do; a failed fetch is a TypeError with the browser's
  // wording.
  return {
    variant: 'destructive',
    description: error instanceof TypeError ? 'Failed to update push notifications' : error.message,
  };
}

export function usePushDevice() {
  const queryClient = useQueryClient();
  const supported = pushSupported();
  const key = useQuery({
    queryKey: settingsKeys.pushKey(),
    queryFn: ({ signal }) => getPushKey(signal),
    enabled: supported,
  });
  const device = useQuery({
    queryKey: settingsKeys.pushDevice(),
    queryFn: readDevice,
    enabled: supported,
    staleTime: 0,
    // The member may allow or block notifications in the browser's own settings meanwhile.
    refetchOnWindowFocus: true,
  });
  const toggle = useMutation({
    mutationFn: async (on: boolean) => {
      if (!on) return turnOff();
      const publicKey = key.data?.publicKey;
      if (!publicKey) throw new Error('Push notifications are not set up on this server.');
      return turnOn(publicKey);
    },
    onSuccess: (_result, on) => {
      toast({
        title: on ? 'Push notifications are on' : 'Push notifications are off',
        description: on
          ? 'This device will get a notification when your nominees move.'
          : 'This device gets no more push notifications.',
      });
    },
    onError: (error) => toast(pushFailure(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.pushDevice() }),
  });

  let state: PushDeviceState;
  if (!supported) state = 'unsupported';
  else if (key.isError) state = 'key-error';
  else if (key.isPending || device.isPending) state = 'loading';
  else if (!key.data.publicKey) state = 'not-configured';
  else if (device.data?.permission === 'denied') state = 'denied';
  else state = device.data?.subscribed ? 'on' : 'off';

  return {
    state,
    keyError: key.error,
    retryKey: () => void key.refetch(),
    setEnabled: (on: boolean) => toggle.mutate(on),
    isSaving: toggle.isPending,
    /** The value being saved while a change is under way, so the switch moves at once. */
    pendingValue: toggle.isPending ? toggle.variables : undefined,
  };
}
