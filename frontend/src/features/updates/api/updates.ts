import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { useState } from 'react';

import { api, errorMessage, getPage, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import {
  imageFileProblem,
  postFile,
  requestUploadTicket,
  UPLOAD_ADDRESS_FAILED,
  UploadError,
} from '@/lib/upload-file';
import { toast } from '@/stores/toast';

import { updateKeys } from './keys';

export type PlayerUpdate = components['schemas']['PlayerUpdateOut'];
export type PlayerUpdateInput = components['schemas']['PlayerUpdatePostIn'];

export const UPDATES_PAGE_SIZE = 20;
const IMAGE_UPLOAD_FAILED = 'Failed to upload the picture';
const POST_FAILED = 'Failed to post the update. Please try again.';

export const playerUpdatesQueryOptions = (playerId: number) =>
  infiniteQueryOptions({
    queryKey: updateKeys.player(playerId),
    queryFn: ({ pageParam, signal }) =>
      getPage(
        '/api/players/{player_id}/updates',
        { path: { player_id: playerId }, query: { limit: UPDATES_PAGE_SIZE } },
        pageParam,
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextUrl,
  });

/** A player's updates the reader sees, newest first, a page at a time. */
export function usePlayerUpdates(playerId: number) {
  return useInfiniteQuery(playerUpdatesQueryOptions(playerId));
}

export type NewUpdate = {
  title: string;
  content: string;
  milestone: boolean;
  videoURL: string;
  image: File | null;
};

/**
 * Posts an update: a picture goes first through the upload pipeline (checked here, sent to
 * storage, then checked and re-encoded by the server when the update names it). An update
 * with media waits for the moderators, which the toast says.
 */
export function useCreateUpdate(playerId: number) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: async ({ image, videoURL, ...fields }: NewUpdate) => {
      let imageURL: string | null = null;
      if (image) {
        const problem = imageFileProblem(image);
        if (problem) throw new UploadError(problem);
        const ticket = await requestUploadTicket(image.type).catch(() => {
          throw new UploadError(UPLOAD_ADDRESS_FAILED);
        });
        setProgress(0);
        await postFile(ticket, image, setProgress, IMAGE_UPLOAD_FAILED);
        imageURL = ticket.objectURL;
      }
      return unwrap(
        api.POST('/api/players/{player_id}/updates', {
          params: { path: { player_id: playerId } },
          body: { ...fields, videoURL: videoURL || null, imageURL },
        }),
      );
    },
    onSuccess: (update) => {
      void queryClient.invalidateQueries({ queryKey: updateKeys.player(playerId) });
      toast(
        update.status === 'pending'
          ? {
              title: 'Update sent for review',
              description: 'Our moderators check it before anyone else sees it.',
            }
          : { title: 'Update posted' },
      );
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description:
          error instanceof UploadError ? error.message : errorMessage(error, POST_FAILED),
      }),
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}

export function useDeleteUpdate(playerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (updateId: number) =>
      unwrap(
        api.DELETE('/api/players/{player_id}/updates/{update_id}', {
          params: { path: { player_id: playerId, update_id: updateId } },
        }),
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: updateKeys.player(playerId) }),
    onSuccess: () => toast({ title: 'Update deleted' }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to delete the update'),
      }),
  });
}
