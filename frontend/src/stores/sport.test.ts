import { act, render, renderHook } from '@testing-library/react';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';

import { DEFAULT_SPORT, SPORT_STORAGE_KEY, SPORTS, useSport, useSportStore } from './sport';

describe('sport store', () => {
  it('gives every sport its own icon, basketball and baseball included', () => {
    const drawings = SPORTS.map(({ icon }) => {
      const { container, unmount } = render(createElement(icon, { 'aria-hidden': true }));
      const svg = container.querySelector('svg');
      const drawing = svg?.innerHTML ?? '';
      unmount();
      return { drawing, className: svg?.getAttribute('class') ?? '' };
    });
    expect(drawings.every(({ drawing }) => drawing.length > 0)).toBe(true);
    expect(new Set(drawings.map(({ drawing }) => drawing)).size).toBe(SPORTS.length);
    expect(drawings[1].className).toContain('lucide-basketball');
    expect(drawings[2].className).toContain('lucide-baseball');
  });

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
