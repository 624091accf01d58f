import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import { toast } from '@/stores/toast';

import { adminKeys } from './admin-keys';

export type AdminComment = components['schemas']['AdminCommentOut'];
export type CommentsReview = components['schemas']['CommentReviewChangedOut'];

export const commentsQueueKey = () => [...adminKeys.all, 'comments', 'pending'] as const;

/** The Comments tab: held comments, the longest waiting first (the first 200). */
export const commentsQueueQueryOptions = () =>
  queryOptions({
    queryKey: commentsQueueKey(),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/admin/comments', {
          params: { query: { status: 'pending', limit: 200 } },
          signal,
        }),
      ),
  });

export function useCommentsQueue(enabled = true) {
  return useQuery({ ...commentsQueueQueryOptions(), enabled });
}

/** Approve (publish) or remove a held comment; every admin's tab follows live. */
export function useDecideComment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'approve' | 'remove' }) =>
      action === 'approve'
        ? unwrap(
            api.POST('/api/admin/comments/{comment_id}/approve', {
              params: { path: { comment_id: id } },
              body: { reason: '' },
            }),
          )
        : unwrap(
            api.POST('/api/admin/comments/{comment_id}/remove', {
              params: { path: { comment_id: id } },
              body: { reason: '' },
            }),
          ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: commentsQueueKey() }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to decide the comment. Please try again.'),
      }),
  });
}

/**
 * Applies `comments.review` to the held queue: a held comment joins it, a decided or deleted
 * one leaves it (a reported comment still published stays out: it is on its page).
 */
export function applyCommentsReview(queryClient: QueryClient, event: CommentsReview) {
  queryClient.setQueryData<AdminComment[]>(commentsQueueKey(), (queue) => {
    if (!queue) return queue;
    const others = queue.filter((comment) => comment.id !== event.id);
    if (!event.item || event.item.status !== 'pending') return others;
    return [...others, event.item].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
    );
  });
}
