import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { currentVoteCounts, isCurrentVoteCount, voteCountToShow } from './vote-versions';

describe('vote versions', () => {
  it('drops a count older than one seen before, per nomination', () => {
    const queryClient = new QueryClient();
    expect(isCurrentVoteCount(queryClient, { nominationId: 1, version: 5, voteCount: 3 })).toBe(
      true,
    );
    expect(isCurrentVoteCount(queryClient, { nominationId: 1, version: 4, voteCount: 2 })).toBe(
      false,
    );
    expect(isCurrentVoteCount(queryClient, { nominationId: 2, version: 1, voteCount: 1 })).toBe(
      true,
    );
    expect(
      currentVoteCounts(queryClient, [
        { nominationId: 1, version: 5, voteCount: 3 },
        { nominationId: 1, version: 6, voteCount: 4 },
        { nominationId: 2, version: 0, voteCount: 0 },
      ]),
    ).toEqual([
      { nominationId: 1, version: 5, voteCount: 3 },
      { nominationId: 1, version: 6, voteCount: 4 },
    ]);
  });

  it("shows a vote answer's own count unless a newer live count came while it was on its way", () => {
    const queryClient = new QueryClient();
    // The answer is the newest: its count.
    expect(voteCountToShow(queryClient, { nominationId: 7, version: 3, voteCount: 3 })).toBe(3);
    // Two more votes arrived live (not applied while the call was in flight), then the answer.
    isCurrentVoteCount(queryClient, { nominationId: 7, version: 5, voteCount: 5 });
    expect(voteCountToShow(queryClient, { nominationId: 7, version: 4, voteCount: 4 })).toBe(5);
    // The same version live and answered: the answer's count.
    expect(voteCountToShow(queryClient, { nominationId: 7, version: 5, voteCount: 5 })).toBe(5);
  });

  it('keeps each query cache apart', () => {
    const first = new QueryClient();
    const second = new QueryClient();
    isCurrentVoteCount(first, { nominationId: 1, version: 9, voteCount: 9 });
    expect(isCurrentVoteCount(second, { nominationId: 1, version: 1, voteCount: 1 })).toBe(true);
  });
});
