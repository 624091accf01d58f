import { describe, expect, it } from 'vitest';

import { fold } from './fold';

describe('fold', () => {
  it('folds case, accents and punctuation as the server does', () => {
    // The same cases as tests/scouting/test_search.py.
    expect(fold(' Zoë Müller-Ñúñez ')).toBe('zoe muller nunez');
    expect(fold('ZOË MÜLLER ÑÚÑEZ')).toBe('zoe muller nunez');
    expect(fold('Straße İstanbul ǰ')).toBe('strasse istanbul j');
    expect(fold('Ｆｕｌｌ ｗｉｄｔｈ')).toBe('full width');
    expect(fold("Łukasz Søren O’Brien-d'Arc")).toBe('lukasz soren obrien darc');
  });

  it('keeps each symbol as a word, as the server does', () => {
    // The same cases as tests/scouting/test_search.py.
    expect(fold('⚽')).toBe('⚽');
    expect(fold('Leo⚽Messi!')).toBe('leo ⚽ messi');
    expect(fold('👍🏽 ❤\ufe0f')).toBe('👍 ❤');
    expect(fold('!!! _ ...')).toBe('');
  });
});
