import { Goal, HockeyStick, RugbyBall, type LucideIcon } from 'lucide-react';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

import { Baseball, Basketball } from '@/components/icons/sport-icons';

export type Sport = 'football' | 'basketball' | 'baseball' | 'soccer' | 'hockey';

export type SportOption = { value: Sport; label: string; icon: LucideIcon };

/**
 * The five sports the interface lets a user pick, each with its own icon. lucide has no American
 * football, basketball or baseball icon: the laced oval RugbyBall stands for football, and
 * basketball and baseball have their own drawn in lucide's style (components/icons).
 */
export const SPORTS: readonly SportOption[] = [
  { value: 'football', label: 'Football', icon: RugbyBall },
  { value: 'basketball', label: 'Basketball', icon: Basketball },
  { value: 'baseball', label: 'Baseball', icon: Baseball },
  { value: 'soccer', label: 'Soccer', icon: Goal },
  { value: 'hockey', label: 'Hockey', icon: HockeyStick },
];

export const SPORT_VALUES = SPORTS.map((sport) => sport.value) as [Sport, ...Sport[]];

export const DEFAULT_SPORT: Sport = 'football';

export const SPORT_STORAGE_KEY = 'selectedSport';

export function isSport(value: unknown): value is Sport {
  return SPORT_VALUES.includes(value as Sport);
}

export function sportOption(sport: Sport): SportOption {
  return SPORTS.find((option) => option.value === sport) ?? SPORTS[0];
}

type SportState = {
  sport: Sport;
  setSport: (sport: Sport) => void;
};

export const useSportStore = create<SportState>()(
  persist(
    (set) => ({
      sport: DEFAULT_SPORT,
      setSport: (sport) => set({ sport }),
    }),
    {
      name: SPORT_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ sport: state.sport }),
      // A stored value from an older build or edited by hand falls back to the default.
      merge: (persisted, current) => {
        const sport = (persisted as Partial<SportState> | undefined)?.sport;
        return { ...current, sport: isSport(sport) ? sport : DEFAULT_SPORT };
      },
    },
  ),
);

/** Whether a sport choice is already kept in local storage (chosen, or stored at sign-up). */
export function hasStoredSport(): boolean {
  try {
    return localStorage.getItem(SPORT_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/** At sign-in: the user's favourite sport becomes the selection when none is stored yet. */
export function storeFavoriteSportIfNone(favoriteSport: unknown): void {
  if (!hasStoredSport() && isSport(favoriteSport)) useSportStore.getState().setSport(favoriteSport);
}

/** The selected sport, its label and icon, and the setter. */
export function useSport() {
  const sport = useSportStore((state) => state.sport);
  const setSport = useSportStore((state) => state.setSport);
  return { sport, setSport, option: sportOption(sport) };
}
