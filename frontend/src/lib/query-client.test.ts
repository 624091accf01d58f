import { describe, expect, it } from 'vitest';

import { forgetOwnVotes, isCurrentVoteCount } from './live/vote-versions';
import { createQueryClient } from './query-client';

describe('query client defaults', () => {
  it('never goes stale, never refetches on its own and never retries', () => {
    const options = createQueryClient().getDefaultOptions();
    expect(options.queries).toMatchObject({
      staleTime: Infinity,
      gcTime: 300_000,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    });
    expect(options.mutations).toMatchObject({ retry: false });
  });
});

describe('reads against the newest vote counts', () => {
  const nomination = (id: number, voteCount: number, version: number) => ({
    id,
    voteCount,
    version,
    player: { id: 100 + id, name: `Player ${id}` },
  });

  it('keeps a live count newer than a read that landed after it', async () => {
    const queryClient = createQueryClient();
    // A vote.changed (version 6, 12 votes) was applied while the list read was on its way.
    isCurrentVoteCount(queryClient, { nominationId: 1, version: 6, voteCount: 12 });
    const page = { items: [nomination(1, 10, 4), nomination(2, 3, 3)], nextUrl: null };
    await queryClient.fetchQuery({ queryKey: ['list'], queryFn: () => Promise.resolve(page) });
    const shown = queryClient.getQueryData<typeof page>(['list']);
    expect(shown?.items.map((item) => [item.id, item.voteCount, item.version])).toEqual([
      [1, 12, 6],
      [2, 3, 3],
    ]);
    // What the read left unchanged is the read's own object.
    expect(shown?.items[1]).toBe(page.items[1]);
  });

  it('takes a read newer than every count seen, and drops older live counts after it', async () => {
    const queryClient = createQueryClient();
    isCurrentVoteCount(queryClient, { nominationId: 1, version: 2, voteCount: 5 });
    const detail = nomination(1, 9, 7);
    await queryClient.fetchQuery({ queryKey: ['detail'], queryFn: () => Promise.resolve(detail) });
    expect(queryClient.getQueryData(['detail'])).toBe(detail);
    expect(isCurrentVoteCount(queryClient, { nominationId: 1, version: 6, voteCount: 8 })).toBe(
      false,
    );
  });

  it("keeps this reader's vote taken back in another tab over a read that left before it", async () => {
    const queryClient = createQueryClient();
    // The list read (VOTED, version 4) was on its way when the reader took the vote back in
    // another tab (vote.own, version 5), and another member then voted (vote.changed, 6).
    isCurrentVoteCount(queryClient, { nominationId: 1, version: 5, voteCount: 9, hasVoted: false });
    isCurrentVoteCount(queryClient, { nominationId: 1, version: 6, voteCount: 10 });
    const page = {
      items: [
        { ...nomination(1, 10, 4), hasVoted: true },
        { ...nomination(2, 3, 3), hasVoted: true },
      ],
      nextUrl: null,
    };
    await queryClient.fetchQuery({ queryKey: ['list'], queryFn: () => Promise.resolve(page) });
    const shown = queryClient.getQueryData<typeof page>(['list']);
    expect(
      shown?.items.map((item) => [item.id, item.voteCount, item.version, item.hasVoted]),
    ).toEqual([
      [1, 10, 6, false],
      [2, 3, 3, true],
    ]);
    // A read as new as every count seen is taken as it is, its VOTED noted for older reads.
    const detail = { ...nomination(1, 11, 7), hasVoted: true };
    await queryClient.fetchQuery({ queryKey: ['detail'], queryFn: () => Promise.resolve(detail) });
    expect(queryClient.getQueryData(['detail'])).toBe(detail);
    const late = { ...nomination(1, 10, 6), hasVoted: false };
    await queryClient.fetchQuery({ queryKey: ['late'], queryFn: () => Promise.resolve(late) });
    expect(queryClient.getQueryData(['late'])).toMatchObject({ voteCount: 11, hasVoted: true });
    // Another reader signs in: the counts stay, the previous reader's votes are forgotten.
    forgetOwnVotes(queryClient);
    const theirs = { ...nomination(1, 10, 6), hasVoted: false };
    await queryClient.fetchQuery({ queryKey: ['theirs'], queryFn: () => Promise.resolve(theirs) });
    expect(queryClient.getQueryData(['theirs'])).toMatchObject({ voteCount: 11, hasVoted: false });
  });

  it('leaves data without nominations alone', async () => {
    const queryClient = createQueryClient();
    const stats = { totalNominations: 3, totalVotes: 7 };
    await queryClient.fetchQuery({ queryKey: ['stats'], queryFn: () => Promise.resolve(stats) });
    expect(queryClient.getQueryData(['stats'])).toBe(stats);
  });
});
