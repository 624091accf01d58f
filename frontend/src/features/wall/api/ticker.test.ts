import { describe, expect, it } from 'vitest';

import { pushActivity, TICKER_SIZE } from './ticker';
import type { WallActivity } from './types';

const activity = (id: number): WallActivity => ({
  id,
  userId: 1,
  activityType: 'vote_cast',
  relatedUserId: null,
  relatedPlayerId: 3,
  relatedNominationId: 4,
  metadata: { playerName: 'Sam Striker' },
  createdAt: '2025-01-01T10:00:00Z',
  user: { id: 1, name: 'Ada', username: 'ada' },
});

describe('ticker buffer', () => {
  it('puts the newest first and does not repeat an activity', () => {
    let buffer = pushActivity(undefined, activity(1));
    buffer = pushActivity(buffer, activity(2));
    buffer = pushActivity(buffer, activity(1));
    expect(buffer.map((item) => item.id)).toEqual([1, 2]);
  });

  it('stays bounded after 10,000 events, holding the newest', () => {
    let buffer: WallActivity[] | undefined;
    for (let id = 1; id <= 10_000; id += 1) {
      buffer = pushActivity(buffer, activity(id));
      expect(buffer.length).toBeLessThanOrEqual(TICKER_SIZE);
    }
    expect(buffer).toHaveLength(TICKER_SIZE);
    expect(buffer?.[0].id).toBe(10_000);
    expect(buffer?.at(-1)?.id).toBe(10_000 - TICKER_SIZE + 1);
  });
});
