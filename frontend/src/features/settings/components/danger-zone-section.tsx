import { AlertTriangle, Trash2 } from 'lucide-react';
import { useState } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import { Button } from '@/components/ui/button';

import { useDeleteAccount } from '../api/delete-account';

import { SettingsSection } from './settings-section';

export function DangerZoneSection({ onAccountDeleted }: { onAccountDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const deletion = useDeleteAccount({
    onDeleted: () => {
      setOpen(false);
      onAccountDeleted();
    },
  });

  return (
    <SettingsSection id="danger" icon={AlertTriangle} title="Danger Zone" tone="danger">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="text-sm font-medium">Delete Account</p>
          <p className="text-sm text-muted-foreground">
            Permanently delete your account and everything you have added.
          </p>
        </div>
        <ActionDialog
          open={open}
          onOpenChange={(next) => !deletion.isPending && setOpen(next)}
          trigger={
            <Button variant="destructive" className="w-full sm:w-auto">
              <Trash2 aria-hidden="true" />
              Delete Account
            </Button>
          }
          title="Are you absolutely sure?"
          description="This action cannot be undone. This will permanently delete your account, remove all your nominations, votes, and profile data from our servers."
          actionLabel="Yes, delete my account"
          actionVariant="destructive"
          pending={deletion.isPending}
          onAction={() => deletion.mutate()}
        />
      </div>
    </SettingsSection>
  );
}
