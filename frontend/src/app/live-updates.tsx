import { useQueryClient } from '@tanstack/react-query';

import { authKeys } from '@/features/auth/api/auth-keys';
import { setSessionUser } from '@/features/auth/api/session-cache';
import { useUser } from '@/features/auth/hooks/use-user';
import { LiveSocket } from '@/lib/live/live-socket';

import { applyLiveEvent, resyncLiveGroups } from './live-sync';

/** The live socket while someone is signed in, feeding the query cache. */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  const { user } = useUser();
  return (
    <LiveSocket
      enabled={Boolean(user)}
      onEvent={(event) => applyLiveEvent(queryClient, event, { viewerId: user?.id })}
      onResync={(groups) => resyncLiveGroups(queryClient, groups)}
      onSignedOut={() => setSessionUser(queryClient, null)}
      onSessionChanged={() => void queryClient.invalidateQueries({ queryKey: authKeys.me() })}
    />
  );
}
