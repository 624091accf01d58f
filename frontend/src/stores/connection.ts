import { create } from 'zustand';

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

type ConnectionState = {
  status: ConnectionStatus;
  setStatus: (status: ConnectionStatus) => void;
};

/** The state of the live socket, written by the socket hook and shown by ConnectionIndicator. */
export const useConnectionStore = create<ConnectionState>()((set) => ({
  status: 'closed',
  setStatus: (status) => set({ status }),
}));
