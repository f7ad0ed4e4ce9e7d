import { describe, expect, it } from 'vitest';
import { cutGraphemes, cutText } from './cut.ts';
import { unstorableText } from './unicode.ts';

describe('cutText', () => {
  it('leaves text within the length as it is', () => {
    expect(cutText('hello', 5, '…')).toBe('hello');
  });

  it('cuts before an emoji that would be split, never leaving a lone surrogate', () => {
    const text = `${'a'.repeat(198)}😀 and more`;
    const cut = cutText(text, 200, '…');
    expect(cut).toBe(`${'a'.repeat(198)}…`);
    expect(unstorableText(cut)).toBeNull();
  });

  it('keeps a family emoji whole or not at all', () => {
    const family = '👨‍👩‍👧';
    expect(cutText(`ab${family}cd`, 6)).toBe('ab');
    expect(cutText(`ab${family}cd`, 2 + family.length)).toBe(`ab${family}`);
  });
});

describe('cutGraphemes', () => {
  it('counts characters as people see them, never splitting one', () => {
    expect(cutGraphemes('abc', 3, '…')).toBe('abc');
    expect(cutGraphemes('abcd', 3, '…')).toBe('abc…');
    expect(cutGraphemes('👨‍👩‍👧🇫🇷éa', 3, '…')).toBe('👨‍👩‍👧🇫🇷é…');
  });
});
