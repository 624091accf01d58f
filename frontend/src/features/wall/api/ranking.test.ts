import { describe, expect, it } from 'vitest';

import { makeNomination } from '@/testing/nomination-factory';

import { applyVote, byNominations, byVotes, rank, topOf, WALL_SIZE } from './ranking';
import type { WallPlayer, WallScout } from './types';

const player = (id: number, voteCount: number): WallPlayer => makeNomination(id, { voteCount });
const ids = (players: WallPlayer[] | undefined) => players?.map((item) => item.id);

describe('wall ranking', () => {
  const board = topOf([player(1, 9), player(2, 7), player(3, 7), player(4, 3)], byVotes);

  it('orders by votes, ties by the older nomination, like the server', () => {
    expect(ids(topOf([player(3, 7), player(4, 3), player(2, 7), player(1, 9)], byVotes))).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('moves a nomination up to its new place when its votes rise', () => {
    const next = applyVote(board, { nominationId: 4, voteCount: 8 });
    expect(ids(next)).toEqual([1, 4, 2, 3]);
    expect(next?.find((item) => item.id === 4)?.voteCount).toBe(8);
    expect(board.find((item) => item.id === 4)?.voteCount).toBe(3);
  });

  it('moves a nomination down when a vote is taken back', () => {
    expect(ids(applyVote(board, { nominationId: 1, voteCount: 6 }))).toEqual([2, 3, 1, 4]);
  });

  it('lets a tie go to the older nomination', () => {
    // 3 catches up with 2 (7 votes): 2 is older and stays ahead; 4 reaching 9 ties 1 and follows it.
    expect(ids(applyVote(board, { nominationId: 3, voteCount: 7 }))).toEqual([1, 2, 3, 4]);
    expect(ids(applyVote(board, { nominationId: 4, voteCount: 9 }))).toEqual([1, 4, 2, 3]);
  });

  it('ignores a vote for a nomination that is not on the board, or that changes nothing', () => {
    expect(applyVote(board, { nominationId: 99, voteCount: 50 })).toBe(board);
    expect(applyVote(board, { nominationId: 2, voteCount: 7 })).toBe(board);
    expect(applyVote(undefined, { nominationId: 2, voteCount: 8 })).toBeUndefined();
  });

  it('shares a rank between equal scores and skips the ranks they take', () => {
    const ranked = rank(board, (item) => item.voteCount);
    expect(ranked.map(({ item, rank: place }) => [item.id, place])).toEqual([
      [1, 1],
      [2, 2],
      [3, 2],
      [4, 4],
    ]);
    const allTied = rank([player(5, 0), player(6, 0), player(7, 0)], (item) => item.voteCount);
    expect(allTied.map((entry) => entry.rank)).toEqual([1, 1, 1]);
    expect(rank([], (item: WallPlayer) => item.voteCount)).toEqual([]);
  });

  it('keeps ten entries: the eleventh of a longer list leaves the board', () => {
    const eleven = Array.from({ length: 11 }, (_, index) => player(index + 1, 100 - index));
    const top = topOf(eleven, byVotes);
    expect(top).toHaveLength(WALL_SIZE);
    expect(ids(top)).not.toContain(11);
    // A rising count reorders within the ten; the board never grows.
    const next = applyVote(top, { nominationId: 10, voteCount: 1000 });
    expect(next).toHaveLength(WALL_SIZE);
    expect(next?.[0].id).toBe(10);
  });

  it('ranks scouts by nominations, ties by the earlier account', () => {
    const scout = (id: number, nominationCount: number): WallScout => ({
      id,
      name: `Scout ${id}`,
      username: `scout${id}`,
      nominationCount,
    });
    const top = topOf([scout(3, 2), scout(2, 5), scout(1, 2)], byNominations);
    expect(top.map((item) => item.id)).toEqual([2, 1, 3]);
    expect(rank(top, (item) => item.nominationCount).map((entry) => entry.rank)).toEqual([1, 2, 2]);
  });
});
