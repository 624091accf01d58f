import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

import type { NominationInput } from './player-schema';
import { refreshNominations } from './refresh';
import type { Nomination } from './types';

/** POST /api/nominations. Blank optional fields are left out. */
export function createNomination({ videoLink, ...input }: NominationInput): Promise<Nomination> {
  return unwrap(
    api.POST('/api/nominations', { body: { ...input, videoLink: videoLink || undefined } }),
  );
}

/** Nominates a player; then the recent nominations, the lists and the stats are read again. */
export function useCreateNomination() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNomination,
    onSuccess: () => refreshNominations(queryClient),
  });
}
