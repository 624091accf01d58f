import { useMe } from '../api/get-me';

/** The signed-in user: null when signed out, undefined while the check runs. */
export function useUser() {
  const { data, isPending, error } = useMe();
  return { user: data, isPending, error };
}
