import { Bell } from 'lucide-react';

import { useUpdateSetting } from '../api/update-setting';
import type { NotificationField, Settings } from '../api/types';

import { SettingSwitch } from './setting-switch';
import { SettingsSection } from './settings-section';

const toggles: { field: NotificationField; label: string; description: string }[] = [
  {
    field: 'emailNotifications',
    label: 'Email Notifications',
    description: 'Receive notifications by email as well as on the site.',
  },
  {
    field: 'voteNotifications',
    label: 'Vote Notifications',
    description:
      'Hear on the site and on your devices when someone votes for a player you nominated.',
  },
  {
    field: 'voteEmails',
    label: 'Vote Emails',
    description:
      'Get an email when someone votes for a player you nominated (at most one an hour per player).',
  },
  {
    field: 'nominationNotifications',
    label: 'Nomination Notifications',
    description:
      'Hear on the site and on your devices when your nominations are approved or rejected.',
  },
  {
    field: 'nominationEmails',
    label: 'Nomination Emails',
    description: 'Get an email when your nominations are approved or rejected.',
  },
  {
    field: 'weeklyDigest',
    label: 'Weekly Digest',
    description:
      "A Monday email about your sports: the Player of the Week, your nominations' places on the boards and your new followers.",
  },
];

export function NotificationSection({ settings }: { settings: Settings }) {
  const update = useUpdateSetting();
  return (
    <SettingsSection
      id="notifications"
      icon={Bell}
      title="Notification Preferences"
      description="Choose what you want to hear about. Each change is saved at once."
    >
      <div className="divide-y divide-border">
        {toggles.map(({ field, label, description }) => (
          <SettingSwitch
            key={field}
            id={`setting-${field}`}
            label={label}
            description={description}
            checked={settings[field]}
            onCheckedChange={(value) => update.mutate({ field, value })}
          />
        ))}
      </div>
    </SettingsSection>
  );
}
