import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { toast } from '@/stores/toast';

import { ActionDialog } from './action-dialog';
import { Button } from './button';
import { Field } from './field';
import { Input } from './input';
import { Toaster } from './toaster';

function ReasonPage({ onAction }: { onAction: (reason: string) => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <ActionDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button>Decide</Button>}
      title="Decide T-1"
      description="The requester is told your reason."
      actionLabel="Send decision"
      actionDisabled={!reason.trim()}
      onAction={() => {
        onAction(reason);
        setOpen(false);
      }}
    >
      <Field id="reason" label="Reason">
        <Input id="reason" value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </ActionDialog>
  );
}

function AlertPage({ onAction }: { onAction: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <ActionDialog
        alert
        open={open}
        onOpenChange={setOpen}
        title="Delete User"
        description="This action cannot be undone."
        actionLabel="Delete User"
        actionVariant="destructive"
        onAction={onAction}
      />
      <Toaster />
    </>
  );
}

describe('ActionDialog', () => {
  it('takes its action only once its fields allow it, by click or Enter', async () => {
    const user = userEvent.setup();
    const onAction = vi.fn();
    render(<ReasonPage onAction={onAction} />);
    await user.click(screen.getByRole('button', { name: 'Decide' }));

    const dialog = screen.getByRole('dialog', { name: 'Decide T-1' });
    expect(dialog).toHaveAccessibleDescription('The requester is told your reason.');
    expect(screen.getByRole('button', { name: 'Send decision' })).toBeDisabled();

    await user.type(screen.getByLabelText('Reason'), 'Verified by phone{Enter}');
    expect(onAction).toHaveBeenCalledExactlyOnceWith('Verified by phone');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Decide' })).toHaveFocus();
  });

  it('closes on Cancel without the action and gives the focus back to its trigger', async () => {
    const user = userEvent.setup();
    const onAction = vi.fn();
    render(<ReasonPage onAction={onAction} />);
    await user.click(screen.getByRole('button', { name: 'Decide' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onAction).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Decide' })).toHaveFocus();
  });

  it('asks as an alert dialog, which Escape closes before a toast', async () => {
    const user = userEvent.setup();
    const onAction = vi.fn();
    render(<AlertPage onAction={onAction} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete User' });
    expect(dialog).toHaveAccessibleDescription('This action cannot be undone.');

    act(() => void toast({ variant: 'destructive', description: 'Failed to delete user' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByText('Failed to delete user')).toBeInTheDocument();
    expect(onAction).not.toHaveBeenCalled();
  });
});
