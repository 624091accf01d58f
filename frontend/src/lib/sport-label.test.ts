import { describe, expect, it } from 'vitest';

import { sportLabel } from './sport-label';

describe('sportLabel', () => {
  it('names selectable sports, other sports and no sport', () => {
    expect(sportLabel('football')).toBe('Football');
    expect(sportLabel('track_and_field')).toBe('Track and field');
    expect(sportLabel('other')).toBe('Other');
    expect(sportLabel('')).toBe('');
    expect(sportLabel(null)).toBe('');
  });
});
