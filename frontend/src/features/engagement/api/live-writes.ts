import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';

import { engagementKeys } from './keys';
import type { Quests } from './types';

/** What the live events write into the reader's own quests: a quest's new progress. */
export const engagementLiveWrites = {
  'quest.progress': (queryClient, event) => {
    queryClient.setQueryData<Quests>(engagementKeys.quests(), (quests) =>
      quests
        ? {
            ...quests,
            quests: quests.quests.map((quest) =>
              quest.type === event.data.type ? event.data : quest,
            ),
          }
        : quests,
    );
  },
} satisfies LiveWrites;

/** The reader's quests, read again when their user group's events were missed. */
export const engagementLiveRereads = { user: [engagementKeys.quests()] } satisfies LiveRereads;
