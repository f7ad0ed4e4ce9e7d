import { describe, expect, it } from 'vitest';
import { folderPath, folderPathName, folderPathSegments } from './path.ts';

describe('folder path display (002 §9)', () => {
  it('keeps names of up to 26 characters and cuts longer ones at 26', () => {
    const exactly26 = 'abcdefghijklmnopqrstuvwxyz';
    expect(folderPathName(exactly26)).toBe(exactly26);
    expect(folderPathName(`${exactly26}Z`)).toBe(`${exactly26}...`);
    expect(folderPathName('Short')).toBe('Short');
    // Characters, not UTF-16 units: an emoji counts once.
    expect(folderPathName('😀'.repeat(27))).toBe(`${'😀'.repeat(26)}...`);
    // …and so does an emoji made of several (a thumbs-up with its skin tone).
    expect(folderPathName('👍🏽'.repeat(27))).toBe(`${'👍🏽'.repeat(26)}...`);
  });

  it('shows up to 3 segments in full and first, ..., last past that', () => {
    expect(folderPath([])).toBe('');
    expect(folderPath(['A'])).toBe('A');
    expect(folderPath(['A', 'B', 'C'])).toBe('A / B / C');
    expect(folderPathSegments(['A', 'B', 'C', 'D'])).toEqual(['A', '...', 'D']);
    expect(folderPath(['A', 'B', 'C', 'D', 'E'])).toBe('A / ... / E');
  });

  it('cuts names inside a shortened path too', () => {
    const long = 'Customer interviews from the spring of 2024';
    expect(folderPath([long, 'b', 'c', long])).toBe(
      'Customer interviews from t... / ... / Customer interviews from t...',
    );
  });
});
