import { useState, type ReactNode } from 'react';

import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';

type PlayerFormDialogProps = {
  title: string;
  description: ReactNode;
  /** The button that opens the dialog. */
  trigger: ReactNode;
  /** The form, given the function that closes the dialog (after saving or on leaving). */
  children: (close: () => void) => ReactNode;
};

/** The dialog around a player form: the nomination form and the edit form. */
export function PlayerFormDialog({ title, description, trigger, children }: PlayerFormDialogProps) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children(close)}
      </DialogContent>
    </Dialog>
  );
}
