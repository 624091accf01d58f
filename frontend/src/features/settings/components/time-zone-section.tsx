import { Globe } from 'lucide-react';
import { useId, useMemo } from 'react';

import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/input';
import { browserTimeZone } from '@/lib/time-zone';

import { useSetTimeZone } from '../api/time-zone';

import { SettingsSection } from './settings-section';

/** The IANA zones the browser knows, with the member's and the browser's always listed. */
function zoneChoices(...always: string[]): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return [...new Set([...zones, ...always.filter(Boolean), 'UTC'])].sort();
}

/**
 * The member's time zone: a teen account's quiet hours (no email or push from 21:00 to 08:00)
 * are kept in it. Until one is saved, the browser's is shown.
 */
export function TimeZoneSection({ timeZone, onSaved }: { timeZone: string; onSaved?: () => void }) {
  const save = useSetTimeZone(onSaved);
  const id = useId();
  const browser = browserTimeZone();
  const current = timeZone || browser || 'UTC';
  const zones = useMemo(() => zoneChoices(timeZone, browser), [timeZone, browser]);
  return (
    <SettingsSection
      id="time-zone"
      icon={Globe}
      title="Time Zone"
      description="Used for the times of your notifications and a teen account's quiet hours (no email or push from 21:00 to 08:00)."
    >
      <Field
        id={id}
        label="Your time zone"
        hint={timeZone ? undefined : `Not saved yet: your browser's (${current}) is shown.`}
      >
        <NativeSelect
          id={id}
          value={current}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.target.value)}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </NativeSelect>
      </Field>
    </SettingsSection>
  );
}
