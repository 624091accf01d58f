import { describe, expect, it } from 'vitest';

import { countOf, displayAge, humanHours, initials, statusTone } from './display';

const now = new Date(2025, 5, 15);

describe('displayAge', () => {
  it('derives the age from the graduation year', () => {
    expect(displayAge({ age: 15, graduationYear: 2027 }, now)).toEqual({
      age: '16 YRS',
      graduation: '2027 GRAD',
    });
  });

  it('gives 18 in the graduation year and older after it', () => {
    expect(displayAge({ graduationYear: 2025 }, now).age).toBe('18 YRS');
    expect(displayAge({ graduationYear: 2023 }, now).age).toBe('20 YRS');
  });

  it('never goes below 0', () => {
    expect(displayAge({ age: 9, graduationYear: 2045 }, now)).toEqual({
      age: '0 YRS',
      graduation: '2045 GRAD',
    });
  });

  it('shows the raw age without a graduation year', () => {
    expect(displayAge({ age: 14, graduationYear: null }, now)).toEqual({
      age: '14 YRS',
      graduation: null,
    });
    expect(displayAge({ age: 21 }, now)).toEqual({ age: '21 YRS', graduation: null });
  });

  it('shows nothing when neither is known', () => {
    expect(displayAge({}, now)).toEqual({ age: null, graduation: null });
  });

  it('uses the current year by default', () => {
    const year = new Date().getFullYear();
    expect(displayAge({ graduationYear: year + 2 }).age).toBe('16 YRS');
  });
});

describe('initials', () => {
  it.each([
    ['John Smith', 'JS'],
    ['ada', 'A'],
    ['  Mary  Ann  Jones ', 'MJ'],
    ['élodie durand', 'ÉD'],
    ['', '?'],
    [null, '?'],
    [undefined, '?'],
  ])('%j -> %s', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe('statusTone', () => {
  it.each([
    ['approved', 'green'],
    ['pending', 'yellow'],
    ['rejected', 'red'],
    ['anything-else', 'red'],
  ])('%s -> %s', (status, tone) => {
    expect(statusTone(status)).toBe(tone);
  });
});

describe('countOf', () => {
  it.each([
    [0, '0 points'],
    [1, '1 point'],
    [2, '2 points'],
  ])('%i -> %s', (count, text) => {
    expect(countOf(count, 'point')).toBe(text);
  });
});

describe('humanHours', () => {
  it.each([
    [0.25, '15 minutes'],
    [1, '1 hour'],
    [24, '24 hours'],
    [47.6, '48 hours'],
    [48, '2 days'],
    [2160, '90 days'],
    [24 * 800, '2 years'],
  ])('%d h -> %s', (hours, text) => {
    expect(humanHours(hours)).toBe(text);
  });
});
