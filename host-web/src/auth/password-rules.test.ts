import { describe, expect, it } from 'vitest';
import { passwordProblems } from './password-rules.ts';

describe('password rule (002 §5)', () => {
  it('accepts 12+ characters with upper, lower, digit and symbol', () => {
    expect(passwordProblems('Correct-Horse-42')).toEqual([]);
    expect(passwordProblems('Ünïcødé-Pässw0rd')).toEqual([]);
  });

  it('names each missing part', () => {
    expect(passwordProblems('Short-1a')).toEqual(['at least 12 characters']);
    expect(passwordProblems('alllowercase-42')).toEqual(['an uppercase letter']);
    expect(passwordProblems('ALLUPPERCASE-42')).toEqual(['a lowercase letter']);
    expect(passwordProblems('NoDigitsHere-!')).toEqual(['a digit']);
    expect(passwordProblems('NoSymbolsHere42')).toEqual(['a symbol']);
    expect(passwordProblems('')).toHaveLength(5);
  });

  it('refuses more than 100 characters', () => {
    expect(passwordProblems(`Aa1-${'x'.repeat(97)}`)).toEqual(['at most 100 characters']);
  });
});
