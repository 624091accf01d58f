import type { LiveRereads, LiveWrites } from '@/lib/live/reducers';

import { commentKeys, dropComment, putComment } from './comments';

/**
 * A comment posted, approved, deleted or taken down reaches the open section of its
 * nomination. The server sends a held comment only to its author and admins.
 */
export const commentLiveWrites = {
  'comment.created': (queryClient, event, { viewerId }) =>
    putComment(queryClient, event.data, event.data.author.id === viewerId),
  'comment.removed': (queryClient, event) =>
    dropComment(queryClient, event.data.nominationId, event.data.id),
} satisfies LiveWrites;

/** Comments come on a sport's group (and the author's): both read the sections again. */
export const commentLiveRereads = {
  sport: [commentKeys.all],
  user: [commentKeys.all],
  admins: [commentKeys.all],
} satisfies LiveRereads;
