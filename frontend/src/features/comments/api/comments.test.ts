import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { commentKeys, putComment, type CommentEvent, type CommentsData } from './comments';

const NOMINATION = 7;

function section(canModerate: boolean): CommentsData {
  return {
    pages: [{ open: true, closedReason: null, minor: true, canModerate, items: [], nextUrl: null }],
    pageParams: [null],
  };
}

const arrived: CommentEvent = {
  id: 1,
  nominationId: NOMINATION,
  author: { id: 50, name: 'Sam Scout', username: 'sam', badges: [] },
  content: 'Lovely first touch',
  createdAt: '2025-01-02T12:00:00Z',
  status: 'published',
  commentCount: 1,
};

function deletable(canModerate: boolean, own = false) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(commentKeys.nomination(NOMINATION), section(canModerate));
  putComment(queryClient, arrived, own);
  const data = queryClient.getQueryData<CommentsData>(commentKeys.nomination(NOMINATION));
  return data?.pages[0]?.items.map((item) => item.canDelete);
}

describe('a comment arriving live', () => {
  it("can be deleted by the page's claimant or an admin (the section's canModerate)", () => {
    expect(deletable(true)).toEqual([true]);
  });

  it('can be deleted by its author', () => {
    expect(deletable(false, true)).toEqual([true]);
  });

  it('cannot be deleted by another member', () => {
    expect(deletable(false)).toEqual([false]);
  });
});
