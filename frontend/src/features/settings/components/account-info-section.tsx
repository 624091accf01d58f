import { UserRound } from 'lucide-react';

import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

import { SettingsSection } from './settings-section';

export function AccountInfoSection({ username, email }: { username: string; email: string }) {
  return (
    <SettingsSection id="account" icon={UserRound} title="Account Information">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="settings-username" label="Username">
          <Input id="settings-username" value={username} readOnly className="bg-muted" />
        </Field>
        <Field id="settings-email" label="Email">
          <Input id="settings-email" type="email" value={email} readOnly className="bg-muted" />
        </Field>
      </div>
      <p className="mt-3 text-sm text-muted-foreground">
        Username and email cannot be changed. Contact support if you need assistance.
      </p>
    </SettingsSection>
  );
}
