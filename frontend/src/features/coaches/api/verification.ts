import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import { queryRoots } from '@/lib/query-keys';
import { toast } from '@/stores/toast';

export type CoachVerification = components['schemas']['CoachVerificationOut'];
export type CoachVerificationInput = components['schemas']['CoachVerificationIn'];

export const verificationKey = () => [...queryRoots.coaches, 'verification', 'mine'] as const;

/** The member's latest request to be a verified coach (null: none). */
export function useMyVerification(enabled = true) {
  return useQuery({
    queryKey: verificationKey(),
    queryFn: ({ signal }) => unwrap(api.GET('/api/coach-verifications/mine', { signal })),
    enabled,
  });
}

export function useAskVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CoachVerificationInput) =>
      unwrap(api.POST('/api/coach-verifications', { body })),
    onSuccess: (verification) => {
      queryClient.setQueryData(verificationKey(), verification);
      toast({
        title: 'Request sent',
        description: verification.workEmail
          ? 'Open the link we emailed to your work address, then our moderators decide.'
          : 'Our moderators will check it and tell you their decision.',
      });
    },
  });
}

/** The work email's signed link, confirmed with one button (no session needed). */
export function useConfirmWorkEmail() {
  return useMutation({
    mutationFn: (token: string) =>
      unwrap(api.POST('/api/coach-verifications/confirm-email', { body: { token } })),
  });
}
