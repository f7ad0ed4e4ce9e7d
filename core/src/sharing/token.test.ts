import { describe, expect, it } from 'vitest';
import { generateShareToken, SHARE_TOKEN_PATTERN } from './token.ts';

describe('share tokens', () => {
  it('are exactly 12 letters or digits and differ every time', () => {
    const tokens = Array.from({ length: 500 }, () => generateShareToken());
    for (const token of tokens) expect(token).toMatch(SHARE_TOKEN_PATTERN);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('drop the random bytes that would favour some characters', () => {
    // 248..255 are dropped; 0 -> A, 61 -> 9, 62 -> A again.
    const bytes = [255, 248, 0, 61, 62, 25, 26, 51, 52, 1, 2, 3, 4, 5];
    const random = (size: number) => Buffer.from(bytes.splice(0, size));
    expect(generateShareToken(random)).toBe('A9AZaz0BCDEF');
  });

  it('use every character of the alphabet', () => {
    const seen = new Set(Array.from({ length: 400 }, () => generateShareToken()).join(''));
    expect(seen.size).toBe(62);
  });
});
