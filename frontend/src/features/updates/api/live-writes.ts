import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';

import { updateKeys } from './keys';

/**
 * `player_update.changed` names the player and the update, never its content (who may see it
 * depends on the reader): an open page of that player reads its updates again.
 */
export const updateLiveWrites = {
  'player_update.changed': (queryClient, event) =>
    void queryClient.invalidateQueries({ queryKey: updateKeys.player(event.data.playerId) }),
} satisfies LiveWrites;

/** A sport's or the reader's group joined without its events: every open timeline reads again. */
export const updateLiveRereads = {
  sport: [updateKeys.all],
  user: [updateKeys.all],
  admins: [updateKeys.all],
} satisfies LiveRereads;
