import { describe, expect, it } from 'vitest';

import { rank } from './ranks';

describe('rank', () => {
  it('numbers ties the same and skips after them (1, 2, 2, 4)', () => {
    const ranks = rank([9, 7, 7, 3, 3, 3, 1], (score) => score).map((entry) => entry.rank);
    expect(ranks).toEqual([1, 2, 2, 4, 4, 4, 7]);
  });

  it('keeps the items in their order', () => {
    expect(rank(['a', 'b'], () => 0)).toEqual([
      { item: 'a', rank: 1 },
      { item: 'b', rank: 1 },
    ]);
  });
});
