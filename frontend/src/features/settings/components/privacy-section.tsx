import { Shield } from 'lucide-react';

import { cn } from '@/lib/utils';

import { PROFILE_VISIBILITIES, type ProfileVisibility, type Settings } from '../api/types';
import { useUpdateSetting } from '../api/update-setting';

import { SettingSwitch } from './setting-switch';
import { SettingsSection } from './settings-section';

const visibilityChoices: Record<ProfileVisibility, { label: string; description: string }> = {
  public: { label: 'Public', description: 'Every member can see your profile.' },
  followers: { label: 'Followers', description: 'Only scouts who follow you.' },
  private: { label: 'Private', description: 'Only you and the admins.' },
};

function isVisibility(value: string): value is ProfileVisibility {
  return (PROFILE_VISIBILITIES as readonly string[]).includes(value);
}

export function PrivacySection({ settings }: { settings: Settings }) {
  const update = useUpdateSetting();
  return (
    <SettingsSection
      id="privacy"
      icon={Shield}
      title="Privacy & Discovery"
      description="Decide who can see your profile and whether you appear in Discover Scouts."
    >
      <fieldset>
        <legend className="text-sm font-medium">Profile Visibility</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {PROFILE_VISIBILITIES.map((value) => {
            const { label, description } = visibilityChoices[value];
            const checked = settings.profileVisibility === value;
            return (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
                  checked ? 'border-primary bg-primary-soft/60' : 'border-border hover:bg-muted',
                )}
              >
                <input
                  type="radio"
                  name="profileVisibility"
                  value={value}
                  checked={checked}
                  onChange={(event) => {
                    if (isVisibility(event.target.value)) {
                      update.mutate({ field: 'profileVisibility', value: event.target.value });
                    }
                  }}
                  className="mt-0.5 size-4 accent-primary"
                />
                <span>
                  <span className="block text-sm font-semibold">{label}</span>
                  <span className="block text-xs text-muted-foreground">{description}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="mt-5 border-t border-border pt-5">
        <SettingSwitch
          id="setting-allowDiscoverability"
          label="Allow Discoverability"
          description="Show your profile in Discover Scouts and in suggestions to other members."
          checked={settings.allowDiscoverability}
          onCheckedChange={(value) => update.mutate({ field: 'allowDiscoverability', value })}
        />
      </div>
    </SettingsSection>
  );
}
