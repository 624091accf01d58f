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
export const commentsReportedKey = () => [...adminKeys.all, 'comments', 'reported'] as const;

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

/** The Comments tab's second list: published comments with open reports (the first 200). */
export const reportedCommentsQueryOptions = () =>
  queryOptions({
    queryKey: commentsReportedKey(),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/admin/comments', {
          params: { query: { status: 'reported', limit: 200 } },
          signal,
        }),
      ),
  });

export function useReportedComments() {
  return useQuery(reportedCommentsQueryOptions());
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
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: commentsQueueKey() });
      void queryClient.invalidateQueries({ queryKey: commentsReportedKey() });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to decide the comment. Please try again.'),
      }),
  });
}

const oldestFirst = (a: AdminComment, b: AdminComment) =>
  a.createdAt.localeCompare(b.createdAt) || a.id - b.id;

/** ``list`` with the event's comment in it when ``belongs`` says so, else without it. */
function placed(
  list: AdminComment[] | undefined,
  event: CommentsReview,
  belongs: (comment: AdminComment) => boolean,
) {
  if (!list) return list;
  const others = list.filter((comment) => comment.id !== event.id);
  if (!event.item || !belongs(event.item)) return others;
  return [...others, event.item].sort(oldestFirst);
}

/**
 * Applies `comments.review` to the Comments tab's two lists: a held comment is in the held
 * queue; a published one with open reports is in the reported list; a decided or deleted one
 * leaves both.
 */
export function applyCommentsReview(queryClient: QueryClient, event: CommentsReview) {
  queryClient.setQueryData<AdminComment[]>(commentsQueueKey(), (queue) =>
    placed(queue, event, (comment) => comment.status === 'pending'),
  );
  queryClient.setQueryData<AdminComment[]>(commentsReportedKey(), (reported) =>
    placed(
      reported,
      event,
      (comment) => comment.status === 'published' && comment.reports.length > 0,
    ),
  );
}
