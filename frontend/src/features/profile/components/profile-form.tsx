import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { sportLabel } from '@/lib/sport-label';

import type { Profile } from '../api/types';
import {
  PROFILE_SPORTS,
  profileInputSchema,
  useUpdateProfile,
  type ProfileInput,
} from '../api/update-profile';

type ProfileFormProps = {
  profile: Profile;
  onSaved?: () => void;
};

function toFormValues(profile: Profile): ProfileInput {
  const sport = PROFILE_SPORTS.find((value) => value === profile.favoriteSport) ?? '';
  return {
    name: profile.name,
    bio: profile.bio,
    location: profile.location,
    phoneNumber: profile.phoneNumber,
    favoriteSport: sport,
  };
}

export function ProfileForm({ profile, onSaved }: ProfileFormProps) {
  const update = useUpdateProfile({ onSaved });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<ProfileInput>({
    resolver: zodResolver(profileInputSchema),
    defaultValues: toFormValues(profile),
  });

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, { onSuccess: (saved) => reset(toFormValues(saved)) }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Information</CardTitle>
        <CardDescription>This is what other scouts see on your profile.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
          <Field id="profile-name" label="Full Name" error={errors.name?.message}>
            {(control) => <Input autoComplete="name" {...control} {...register('name')} />}
          </Field>
          <Field id="profile-bio" label="Bio" error={errors.bio?.message}>
            {(control) => (
              <Textarea
                rows={4}
                placeholder="Tell the community about yourself"
                {...control}
                {...register('bio')}
              />
            )}
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="profile-location" label="Location" error={errors.location?.message}>
              {(control) => (
                <Input
                  placeholder="City, Country"
                  autoComplete="address-level2"
                  {...control}
                  {...register('location')}
                />
              )}
            </Field>
            <Field id="profile-phone" label="Phone Number" error={errors.phoneNumber?.message}>
              {(control) => (
                <Input type="tel" autoComplete="tel" {...control} {...register('phoneNumber')} />
              )}
            </Field>
          </div>
          <Field id="profile-sport" label="Favorite Sport" error={errors.favoriteSport?.message}>
            {(control) => (
              <NativeSelect {...control} {...register('favoriteSport')}>
                <option value="" disabled>
                  Select a sport
                </option>
                {PROFILE_SPORTS.map((sport) => (
                  <option key={sport} value={sport}>
                    {sportLabel(sport)}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" disabled={!isDirty || update.isPending} onClick={() => reset()}>
              Discard changes
            </Button>
            <Button type="submit" loading={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
