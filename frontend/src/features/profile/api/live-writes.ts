import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';

import { profileKeys } from './keys';

type Points = { points?: number };

/** What the live events write into the reader's own profile: the points their actions earn. */
export const profileLiveWrites = {
  'profile.changed': (queryClient, event) => {
    queryClient.setQueriesData<Points>({ queryKey: profileKeys.all }, (profile) =>
      profile && typeof profile === 'object' ? { ...profile, points: event.data.points } : profile,
    );
  },
} satisfies LiveWrites;

/** The reader's profile, read again when their user group's events were missed. */
export const profileLiveRereads = { user: [profileKeys.all] } satisfies LiveRereads;
