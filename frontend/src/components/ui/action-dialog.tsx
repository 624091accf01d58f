import type { ReactNode } from 'react';

import { Button } from './button';
import type { ButtonVariant } from './button-classes';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './dialog';

type ActionDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the dialog; the focus goes back to it when the dialog closes. */
  trigger?: ReactNode;
  title: ReactNode;
  description: ReactNode;
  actionLabel: ReactNode;
  actionVariant?: ButtonVariant;
  /** The action cannot be taken yet (a required field is empty). */
  actionDisabled?: boolean;
  pending?: boolean;
  onAction: () => void;
  /** An alert dialog: a confirmation that interrupts (changing or deleting an account). */
  alert?: boolean;
  /** The fields the action needs, between the description and the buttons. */
  children?: ReactNode;
};

/** Asks before an action: title, description, the action's fields, Cancel and the action. */
export function ActionDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  actionLabel,
  actionVariant = 'primary',
  actionDisabled = false,
  pending = false,
  onAction,
  alert = false,
  children,
}: ActionDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent role={alert ? 'alertdialog' : 'dialog'}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!actionDisabled) onAction();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={pending}>
                Cancel
              </Button>
            </DialogClose>
            <Button
              type="submit"
              variant={actionVariant}
              disabled={actionDisabled}
              loading={pending}
            >
              {actionLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
