import { describe, expect, it } from 'vitest';

import { makeNomination } from '@/testing/nomination-factory';

import {
  addToQueue,
  decideInQueue,
  markInQueue,
  queueItems,
  removedFromQueue,
  statsWithCounts,
  updateInQueue,
} from './queue';
import type { AdminStats, ModerationChanged, PendingQueue } from './types';

const pending = (id: number) => makeNomination(id);

function queueOf(...pages: number[][]): PendingQueue {
  return {
    pages: pages.map((ids, index) => ({
      items: ids.map(pending),
      nextUrl: index < pages.length - 1 ? `/next/${index}` : null,
    })),
    pageParams: pages.map((_, index) => (index === 0 ? null : `/next/${index - 1}`)),
  };
}

const ids = (queue: PendingQueue | undefined) => queueItems(queue).map((item) => item.id);

const ada = { id: 7, name: 'Ada Admin', username: 'ada' };
const bob = { id: 8, name: 'Bob Boss', username: 'bob' };

function decided(id: number, by = bob, action: 'approved' | 'rejected' = 'approved') {
  return {
    pending: 4,
    approved: 10,
    rejected: 2,
    item: { ...makeNomination(id, { status: action }) },
    action,
    by,
  } satisfies ModerationChanged;
}

describe('pending queue merge', () => {
  it('puts a new pending nomination on top of the first page, once', () => {
    const queue = queueOf([3, 2], [1]);
    const next = addToQueue(queue, pending(4));
    expect(next?.pages.map((page) => page.items.map((item) => item.id))).toEqual([[4, 3, 2], [1]]);
    expect(addToQueue(next, pending(4))).toBe(next);
    expect(addToQueue(queue, pending(1))).toBe(queue);
    expect(addToQueue(queue, makeNomination(9, { status: 'approved' }))).toBe(queue);
    expect(addToQueue(undefined, pending(4))).toBeUndefined();
  });

  it('marks an item another admin decided and keeps it where it is', () => {
    const queue = queueOf([3, 2], [1]);
    const next = decideInQueue(queue, decided(2), ada.id);
    expect(ids(next)).toEqual([3, 2, 1]);
    expect(queueItems(next).find((item) => item.id === 2)?.decided).toEqual({
      action: 'approved',
      by: bob,
    });
    expect(queueItems(next).filter((item) => item.decided)).toHaveLength(1);
  });

  it('drops at once an item the viewing admin decided', () => {
    expect(ids(decideInQueue(queueOf([3, 2], [1]), decided(1, ada), ada.id))).toEqual([3, 2]);
  });

  it('leaves the queue alone for an item it does not hold', () => {
    const queue = queueOf([3, 2]);
    expect(decideInQueue(queue, decided(99), ada.id)).toBe(queue);
    expect(decideInQueue(queue, decided(99, ada), ada.id)).toBe(queue);
  });

  it('keeps the first mark when the item is decided again', () => {
    const marked = markInQueue(queueOf([2]), 2, { action: 'rejected', by: bob });
    expect(markInQueue(marked, 2, { action: 'approved', by: ada })).toBe(marked);
  });

  it('takes an edit of a pending item, and keeps the mark of a decided one', () => {
    const queue = decideInQueue(queueOf([3, 2]), decided(2, bob, 'rejected'), ada.id);
    const edited = makeNomination(3, { player: { name: 'Renamed' } });
    expect(queueItems(updateInQueue(queue, edited))[0].player.name).toBe('Renamed');

    const update = makeNomination(2, { status: 'rejected', player: { verified: true } });
    const item = queueItems(updateInQueue(queue, update)).find((entry) => entry.id === 2);
    expect(item?.player.verified).toBe(true);
    expect(item?.decided).toEqual({ action: 'rejected', by: bob });
  });

  it('drops an unmarked item an update says is no longer pending', () => {
    const queue = queueOf([3, 2]);
    expect(ids(updateInQueue(queue, makeNomination(2, { status: 'approved' })))).toEqual([3]);
  });

  it('removes a deleted nomination unless it is showing its mark', () => {
    const queue = decideInQueue(queueOf([3, 2]), decided(2), ada.id);
    expect(ids(removedFromQueue(queue, 3))).toEqual([2]);
    expect(removedFromQueue(queue, 2)).toBe(queue);
  });

  it('sets the tab counts from the event', () => {
    const stats: AdminStats = {
      pendingNominations: 5,
      approvedNominations: 9,
      rejectedNominations: 2,
      totalVotes: 40,
      activeScouts: 6,
      totalNominations: 16,
    };
    expect(statsWithCounts(stats, decided(2))).toEqual({
      ...stats,
      pendingNominations: 4,
      approvedNominations: 10,
      rejectedNominations: 2,
    });
    expect(statsWithCounts(undefined, decided(2))).toBeUndefined();
  });
});
