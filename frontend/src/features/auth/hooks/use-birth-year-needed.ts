import { useClosedAccount } from '../closed-account';

import { useUser } from './use-user';

/**
 * Whether the signed-in member still has to give their year of birth (an older account), or
 * has just been told their account is closed.
 */
export function useBirthYearNeeded(): boolean {
  const { user } = useUser();
  const closed = useClosedAccount((state) => state.closed);
  return closed !== null || user?.ageBand === 'unknown';
}
