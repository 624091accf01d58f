import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { toast } from '@/stores/toast';

import { Dialog, DialogContent, DialogTitle, DialogTrigger } from './dialog';
import { Toaster } from './toaster';

function Page() {
  return (
    <>
      <Dialog>
        <DialogTrigger>Open</DialogTrigger>
        <DialogContent aria-describedby={undefined}>
          <DialogTitle>Reject nomination</DialogTitle>
          <input aria-label="Reason" />
        </DialogContent>
      </Dialog>
      <Toaster />
    </>
  );
}

describe('Escape with a dialog open and a toast shown', () => {
  it('closes the dialog first, keeps the toast, and dismisses the toast on a second Escape', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('dialog', { name: 'Reject nomination' })).toBeInTheDocument();
    // The toast arrives while the dialog is open (an error from the dialog's own call).
    act(() => void toast({ variant: 'destructive', description: 'Failed to reject' }));
    expect(screen.getByText('Failed to reject')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Failed to reject')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('Failed to reject')).not.toBeInTheDocument());
  });

  it('still closes a toast with Escape when no dialog is open', async () => {
    const user = userEvent.setup();
    render(<Page />);
    act(() => void toast({ title: 'Vote submitted' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('Vote submitted')).not.toBeInTheDocument());
  });
});
