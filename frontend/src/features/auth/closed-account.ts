import { create } from 'zustand';

/** An account the server closed when its year of birth said under 13. */
export type ClosedAccount = { message: string; token: string | null; deleted: boolean };

type ClosedAccountState = {
  closed: ClosedAccount | null;
  setClosed: (closed: ClosedAccount | null) => void;
};

/**
 * Held outside the session: the server ends the session as it closes the account, and the
 * page saying so (with its offer to delete the account) stays until the member leaves it.
 */
export const useClosedAccount = create<ClosedAccountState>((set) => ({
  closed: null,
  setClosed: (closed) => set({ closed }),
}));
