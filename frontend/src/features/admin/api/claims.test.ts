import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { applyClaimsChanged, claimsHeldKey, claimsQueueKey, type AdminClaim } from './claims';

function claim(
  id: number,
  createdAt: string,
  status: AdminClaim['status'] = 'pending',
): AdminClaim {
  return {
    id,
    playerId: 10 + id,
    relationship: 'parent_or_guardian',
    birthYear: 2014,
    evidence: 'Club roster',
    contactPhone: '',
    status,
    decisionReason: '',
    createdAt,
    decidedAt: null,
    player: {
      id: 10 + id,
      name: `Player ${id}`,
      age: 12,
      graduationYear: null,
      position: 'Winger',
      nationality: 'Portugal',
      club: 'Lisbon Juniors',
      sport: 'football',
      skills: '',
      videoLink: '',
      verified: false,
      managedBy: null,
    },
    claimant: { id: 100 + id, name: 'Rita', username: 'rita' },
    nominatedBy: [{ id: 1, name: 'Sam', username: 'sam' }],
    decidedBy: null,
  };
}

/** What reading the pending queue again answers: the pending claims, the oldest first. */
function refetched(all: AdminClaim[]) {
  return all
    .filter((item) => item.status === 'pending')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

describe('claims.changed', () => {
  it('applied equals the queue read again: a new claim joins, a decided one leaves', () => {
    const first = claim(1, '2026-01-01T10:00:00Z');
    const second = claim(2, '2026-01-01T11:00:00Z');
    const queryClient = new QueryClient();
    queryClient.setQueryData(claimsQueueKey(), [first]);

    applyClaimsChanged(queryClient, { pending: 2, item: second, action: 'created' });
    expect(queryClient.getQueryData(claimsQueueKey())).toEqual(refetched([first, second]));

    const approved = { ...first, status: 'approved' as const };
    applyClaimsChanged(queryClient, { pending: 1, item: approved, action: 'approved' });
    expect(queryClient.getQueryData(claimsQueueKey())).toEqual(refetched([approved, second]));
  });

  it('leaves a queue never read alone', () => {
    const queryClient = new QueryClient();
    applyClaimsChanged(queryClient, {
      pending: 1,
      item: claim(1, '2026-01-01T10:00:00Z'),
      action: 'created',
    });
    expect(queryClient.getQueryData(claimsQueueKey())).toBeUndefined();
  });

  it('keeps the managed profiles: an approved claim joins, an ended one leaves', () => {
    const held = { ...claim(1, '2026-01-01T10:00:00Z'), status: 'approved' as const };
    const newer = { ...claim(2, '2026-01-02T10:00:00Z'), status: 'approved' as const };
    const queryClient = new QueryClient();
    queryClient.setQueryData(claimsHeldKey(), [held]);

    applyClaimsChanged(queryClient, { pending: 0, item: newer, action: 'approved' });
    expect(queryClient.getQueryData(claimsHeldKey())).toEqual([held, newer]);

    const revoked = { ...held, status: 'ended' as const };
    applyClaimsChanged(queryClient, { pending: 0, item: revoked, action: 'revoked' });
    expect(queryClient.getQueryData(claimsHeldKey())).toEqual([newer]);

    const transferred = { ...newer, status: 'ended' as const };
    applyClaimsChanged(queryClient, { pending: 0, item: transferred, action: 'transferred' });
    // The transfer's new claim is read again.
    expect(queryClient.getQueryState(claimsHeldKey())?.isInvalidated).toBe(true);
  });
});
