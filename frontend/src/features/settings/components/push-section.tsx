import { BellRing, RefreshCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';

import { usePushDevice, type PushDeviceState } from '../hooks/use-push-device';

import { SettingSwitch } from './setting-switch';
import { SettingsSection } from './settings-section';

/** What the section says under the switch, for the states where the switch cannot be used. */
const notes: Partial<Record<PushDeviceState, { title: string; body: string }>> = {
  unsupported: {
    title: 'This browser cannot receive push notifications.',
    body: 'Use a current Chrome, Edge, Firefox or Safari. On iPhone and iPad, add ScoutVote to your Home Screen first, then turn notifications on from the installed app.',
  },
  'not-configured': {
    title: 'Push notifications are not set up on this server.',
    body: 'The site administrator has not configured them yet. Email notifications still work.',
  },
  denied: {
    title: 'Notifications are blocked for this site.',
    body: 'To allow them, open the site settings from the icon to the left of the address bar (on a phone, the browser menu, then Site settings), set Notifications to Allow, then reload this page.',
  },
};

export function PushSection() {
  const push = usePushDevice();
  const note = notes[push.state];
  const usable = push.state === 'on' || push.state === 'off';
  const checked = push.pendingValue ?? push.state === 'on';

  return (
    <SettingsSection
      id="push"
      icon={BellRing}
      title="Push notifications on this device"
      description="Hear about your nominations on this device even when ScoutVote is closed. The notification preferences above choose what you hear about."
    >
      <SettingSwitch
        id="setting-push-device"
        label="Push notifications"
        description={
          push.state === 'on'
            ? 'On for this device.'
            : 'Your browser asks for permission when you turn this on.'
        }
        checked={usable && checked}
        disabled={!usable || push.isSaving}
        onCheckedChange={push.setEnabled}
      />
      {note && (
        <div role="status" className="mt-4 rounded-lg border border-border bg-muted p-3 text-sm">
          <p className="font-medium">{note.title}</p>
          <p className="mt-1 text-muted-foreground">{note.body}</p>
        </div>
      )}
      {push.state === 'key-error' && (
        <div role="status" className="mt-4 rounded-lg border border-border bg-muted p-3 text-sm">
          <p className="font-medium">Push notifications could not be checked.</p>
          <p className="mt-1 text-muted-foreground">
            {errorMessage(push.keyError, 'The server did not answer.')}
          </p>
          <Button variant="outline" size="sm" className="mt-3" onClick={push.retryKey}>
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        </div>
      )}
    </SettingsSection>
  );
}
