import { useUser } from './use-user';

/** Whether the signed-in member still has to give their year of birth (an older account). */
export function useBirthYearNeeded(): boolean {
  const { user } = useUser();
  return user?.ageBand === 'unknown';
}
