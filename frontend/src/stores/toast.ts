import { create } from 'zustand';

export type ToastVariant = 'default' | 'destructive';

export type ToastAction = {
  label: string;
  /** Says what the button does, for screen readers, when the label alone does not. */
  altText?: string;
  onClick: () => void;
};

export type ToastInput = {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** A button in the toast; the toast closes once it is pressed. */
  action?: ToastAction;
  /** Stays open until dismissed or acted on, instead of closing after TOAST_DURATION_MS. */
  persistent?: boolean;
};

export type ToastItem = ToastInput & {
  id: string;
  variant: ToastVariant;
  open: boolean;
};

/** At most this many toasts are kept: a new one replaces the previous. */
export const TOAST_LIMIT = 1;
/** How long a toast stays open before closing itself. */
export const TOAST_DURATION_MS = 5000;
/** How long a dismissed toast is kept (closed) before it is removed from the store. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

type ToastState = {
  toasts: ToastItem[];
  add: (toast: ToastItem) => void;
  dismiss: (id?: string) => void;
  remove: (id?: string) => void;
};

const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      useToastStore.getState().remove(id);
    }, TOAST_REMOVE_DELAY_MS),
  );
}

function clearRemoval(id: string) {
  clearTimeout(removalTimers.get(id));
  removalTimers.delete(id);
}

export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  add: (toast) => {
    const kept = [toast, ...get().toasts];
    for (const dropped of kept.slice(TOAST_LIMIT)) clearRemoval(dropped.id);
    set({ toasts: kept.slice(0, TOAST_LIMIT) });
  },
  dismiss: (id) => {
    const matches = (toast: ToastItem) => id === undefined || toast.id === id;
    const toasts = get().toasts;
    for (const toast of toasts) if (matches(toast)) scheduleRemoval(toast.id);
    set({ toasts: toasts.map((toast) => (matches(toast) ? { ...toast, open: false } : toast)) });
  },
  remove: (id) => {
    const toasts = get().toasts;
    for (const toast of toasts) if (id === undefined || toast.id === id) clearRemoval(toast.id);
    set({ toasts: id === undefined ? [] : toasts.filter((toast) => toast.id !== id) });
  },
}));

let counter = 0;

/**
 * Shows a toast from anywhere, inside React or not. A destructive toast without a title is
 * titled "Error".
 */
export function toast({ title, description, variant = 'default', action, persistent }: ToastInput) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  useToastStore.getState().add({
    id,
    title: title ?? (variant === 'destructive' ? 'Error' : undefined),
    description,
    variant,
    action,
    persistent,
    open: true,
  });
  return { id, dismiss: () => useToastStore.getState().dismiss(id) };
}
