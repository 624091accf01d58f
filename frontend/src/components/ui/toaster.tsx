import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';

import { buttonClasses } from '@/components/ui/button-classes';
import { cn } from '@/lib/utils';
import { TOAST_DURATION_MS, useToastStore } from '@/stores/toast';

/**
 * Escape closes an open dialog before a toast. A toast shown while a dialog is open is the
 * newest dismissable layer, so Radix would give it the Escape: it stays, and the topmost open
 * dialog closes instead (through its Close button); a second Escape then dismisses the toast.
 */
function closeTopDialogInstead(event: KeyboardEvent) {
  const dialogs = document.querySelectorAll(
    ':is([role="dialog"], [role="alertdialog"])[data-state="open"]',
  );
  const close = dialogs[dialogs.length - 1]?.querySelector<HTMLElement>('[data-dialog-close]');
  if (!close) return;
  event.preventDefault();
  close.click();
}

/**
 * Renders the toast store. Radix supplies the timing (5 s), swipe-to-dismiss to the right past
 * 50 px, and the F8 hotkey that focuses the notification region.
 */
export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);

  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={50}
    >
      {toasts.map(({ id, title, description, variant, action, persistent, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={persistent ? Infinity : undefined}
          onEscapeKeyDown={closeTopDialogInstead}
          onOpenChange={(next) => {
            if (!next) dismiss(id);
          }}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-lg',
            'data-[state=closed]:animate-toast-out data-[state=open]:animate-toast-in',
            // Reduced motion: a toast comes and goes at once, never half-faded on the page.
            'motion-reduce:data-[state=closed]:animate-none motion-reduce:data-[state=open]:animate-none',
            'data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-out data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x)',
            variant === 'destructive'
              ? 'border-destructive bg-destructive text-destructive-foreground'
              : 'border-border bg-surface text-foreground',
          )}
        >
          <div className="grid gap-1">
            {title && (
              <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title>
            )}
            {description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {description}
              </ToastPrimitive.Description>
            )}
            {action && (
              <ToastPrimitive.Action
                altText={action.altText ?? action.label}
                onClick={action.onClick}
                className={buttonClasses({
                  variant: 'outline',
                  size: 'sm',
                  className: 'mt-2 w-fit',
                })}
              >
                {action.label}
              </ToastPrimitive.Action>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-3 right-3 rounded-md p-1 opacity-70 hover:opacity-100"
          >
            <X className="size-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[100] flex max-h-dvh w-full flex-col gap-2 p-4 outline-none sm:max-w-sm" />
    </ToastPrimitive.Provider>
  );
}
