import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { DEFAULT_SPORT, SPORT_STORAGE_KEY, SPORTS, useSport, useSportStore } from './sport';

describe('sport store', () => {
  it('offers the five selectable sports, football first and by default', () => {
    expect(SPORTS.map((sport) => sport.value)).toEqual([
      'football',
      'basketball',
      'baseball',
      'soccer',
      'hockey',
    ]);
    expect(SPORTS.map((sport) => sport.label)).toEqual([
      'Football',
      'Basketball',
      'Baseball',
      'Soccer',
      'Hockey',
    ]);
    expect(DEFAULT_SPORT).toBe('football');
    expect(useSportStore.getState().sport).toBe('football');
  });

  it('persists the selection to localStorage under selectedSport', () => {
    const { result } = renderHook(() => useSport());
    act(() => result.current.setSport('hockey'));
    expect(result.current.sport).toBe('hockey');
    expect(result.current.option.label).toBe('Hockey');
    expect(JSON.parse(localStorage.getItem(SPORT_STORAGE_KEY)!).state).toEqual({ sport: 'hockey' });
  });

  it('restores a stored sport and ignores an unknown one', async () => {
    localStorage.setItem(
      SPORT_STORAGE_KEY,
      JSON.stringify({ state: { sport: 'soccer' }, version: 0 }),
    );
    await useSportStore.persist.rehydrate();
    expect(useSportStore.getState().sport).toBe('soccer');

    localStorage.setItem(
      SPORT_STORAGE_KEY,
      JSON.stringify({ state: { sport: 'curling' }, version: 0 }),
    );
    await useSportStore.persist.rehydrate();
    expect(useSportStore.getState().sport).toBe('football');
  });
});
