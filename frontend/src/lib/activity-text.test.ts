import { describe, expect, it } from 'vitest';

import type { components } from '@/lib/api/schema';

import { activityAuthor, activityLine, activityText, relativeTime } from './activity-text';

type Activity = components['schemas']['ActivityOut'];

function activity(activityType: string, metadata: Record<string, unknown> = {}): Activity {
  return {
    id: 1,
    userId: 42,
    activityType,
    relatedUserId: null,
    relatedPlayerId: null,
    relatedNominationId: null,
    metadata,
    createdAt: '2025-03-01T12:00:00Z',
    user: { id: 42, name: 'Jane Doe', username: 'jdoe' },
  };
}

describe('activityAuthor', () => {
  it('names the author by number', () => {
    expect(activityAuthor(activity('vote_cast'))).toBe('Scout #42');
  });
});

describe('activityText', () => {
  it.each([
    ['nomination_created', { playerName: 'Sam Smith' }, 'nominated Sam Smith'],
    ['nomination_created', {}, 'nominated a new player'],
    ['vote_cast', { playerName: 'Sam Smith' }, 'voted for Sam Smith'],
    ['vote_cast', {}, 'cast a vote'],
    [
      'player_update',
      { title: 'Signed with a club', playerName: 'Sam' },
      'posted an update: Signed with a club',
    ],
    ['player_update', { playerName: 'Sam Smith' }, 'posted an update on Sam Smith'],
    ['player_update', {}, 'posted a player update'],
    ['follow', { playerName: 'Sam Smith' }, 'started following Sam Smith'],
    ['follow', { userName: 'Ada Admin' }, 'started following Ada Admin'],
    ['follow', {}, 'followed someone new'],
    ['player_claimed', { playerName: 'Sam Smith' }, 'claimed the profile of Sam Smith'],
    ['player_claimed', {}, 'claimed a player profile'],
    ['quest_completed', {}, 'was active in the community'],
    ['endorsement_given', { title: 'Endorsed a striker' }, 'Endorsed a striker'],
  ])('%s with %o reads "%s"', (type, metadata, text) => {
    expect(activityText(activity(type, metadata))).toBe(text);
  });

  it('ignores metadata that is not text', () => {
    expect(activityText(activity('vote_cast', { playerName: 7 }))).toBe('cast a vote');
    expect(activityText(activity('vote_cast', { playerName: '  ' }))).toBe('cast a vote');
  });
});

describe('activityLine', () => {
  it("puts the author's name before what they did", () => {
    expect(activityLine(activity('vote_cast', { playerName: 'Sam Smith' }))).toBe(
      'Jane Doe voted for Sam Smith',
    );
    expect(activityLine(activity('follow', { userName: 'Ada Admin' }))).toBe(
      'Jane Doe started following Ada Admin',
    );
  });
});

describe('relativeTime', () => {
  const now = new Date('2025-03-01T12:00:00Z');

  it.each([
    ['2025-03-01T10:00:00Z', 'about 2 hours ago'],
    ['2025-03-01T11:59:40Z', 'less than a minute ago'],
    ['2025-03-01T11:55:00Z', '5 minutes ago'],
    ['2025-02-27T12:00:00Z', '2 days ago'],
  ])('%s is "%s"', (createdAt, text) => {
    expect(relativeTime(createdAt, now)).toBe(text);
  });

  it('never says an activity is in the future', () => {
    expect(relativeTime('2025-03-01T12:00:05Z', now)).toBe('less than a minute ago');
  });
});
