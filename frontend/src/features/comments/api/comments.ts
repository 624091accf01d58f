import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';

import { api, cursorOf, errorMessage, nextLink, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import { queryRoots } from '@/lib/query-keys';
import { toast } from '@/stores/toast';

export type Comment = components['schemas']['CommentOut'];
export type CommentEvent = components['schemas']['CommentEventOut'];
type SectionPage = components['schemas']['CommentsPageOut'] & { nextUrl: string | null };
export type CommentsData = InfiniteData<SectionPage, string | null>;

export const commentKeys = {
  all: queryRoots.comments,
  nomination: (nominationId: number) => [...commentKeys.all, nominationId] as const,
};

const PAGE_SIZE = 50;

/** A nomination's comments, oldest first, paged by the Link header, with the section's state. */
export function useComments(nominationId: number) {
  return useInfiniteQuery<SectionPage, Error, CommentsData, readonly unknown[], string | null>({
    queryKey: commentKeys.nomination(nominationId),
    queryFn: async ({ pageParam, signal }): Promise<SectionPage> => {
      const call = api.GET('/api/nominations/{nomination_id}/comments', {
        params: {
          path: { nomination_id: nominationId },
          query: { limit: PAGE_SIZE, cursor: pageParam === null ? undefined : cursorOf(pageParam) },
        },
        signal,
      });
      const page = await unwrap(call);
      const { response } = await call;
      return { ...page, nextUrl: nextLink(response.headers.get('Link')) };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextUrl,
  });
}

/** Every comment of the pages read so far, once each. */
export function commentsOf(data: CommentsData | undefined): Comment[] {
  if (!data) return [];
  const seen = new Set<number>();
  return data.pages
    .flatMap((page) => page.items)
    .filter((comment) => !seen.has(comment.id) && seen.add(comment.id));
}

/**
 * A comment into the cached section of its nomination: replaced where it is, else appended to
 * the last page read (the list is oldest first, and a new comment is the newest). The reader
 * deletes it when it is theirs (``own``) or when they moderate the page (its claimant, an
 * admin: the section's ``canModerate``).
 */
export function putComment(queryClient: QueryClient, comment: CommentEvent, own = false) {
  queryClient.setQueryData<CommentsData>(commentKeys.nomination(comment.nominationId), (data) => {
    if (!data) return data;
    const canDelete = own || data.pages.some((page) => page.canModerate);
    const known = data.pages.some((page) => page.items.some((item) => item.id === comment.id));
    const pages = data.pages.map((page, index) => {
      if (known) {
        return {
          ...page,
          items: page.items.map((item) =>
            item.id === comment.id ? { ...comment, canDelete: item.canDelete || canDelete } : item,
          ),
        };
      }
      const last = index === data.pages.length - 1 && page.nextUrl === null;
      return last ? { ...page, items: [...page.items, { ...comment, canDelete }] } : page;
    });
    return { ...data, pages };
  });
}

export function dropComment(queryClient: QueryClient, nominationId: number, id: number) {
  queryClient.setQueryData<CommentsData>(commentKeys.nomination(nominationId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.filter((item) => item.id !== id),
          })),
        }
      : data,
  );
}

export function useCreateComment(nominationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) =>
      unwrap(
        api.POST('/api/nominations/{nomination_id}/comments', {
          params: { path: { nomination_id: nominationId } },
          body: { content },
        }),
      ),
    onSuccess: (comment) => {
      putComment(queryClient, comment, true);
      if (comment.status === 'pending') {
        toast({
          title: 'Awaiting review',
          description: 'Our moderators will check your comment before others see it.',
        });
      }
    },
  });
}

export function useDeleteComment(nominationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/comments/{comment_id}', { params: { path: { comment_id: id } } })),
    onSuccess: (_, id) => dropComment(queryClient, nominationId, id),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to delete the comment. Please try again.'),
      }),
  });
}

export function useReportComment() {
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(api.POST('/api/reports', { body: { commentId: id, reason: 'inappropriate' } })),
    onSuccess: () =>
      toast({ title: 'Reported', description: 'Thank you. Our moderators will take a look.' }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to send the report. Please try again.'),
      }),
  });
}
