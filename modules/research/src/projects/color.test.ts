import { describe, expect, it } from 'vitest';
import { normalizeHexColor } from './color.ts';

describe('hex colours (000 §5)', () => {
  it('expands 3 digits to 6 and lower-cases', () => {
    expect(normalizeHexColor('#3A7')).toBe('#33aa77');
    expect(normalizeHexColor('3a7')).toBe('#33aa77');
    expect(normalizeHexColor('#12AB9f')).toBe('#12ab9f');
  });
  it('rejects anything else', () => {
    for (const bad of ['', '#', '#12', '#1234', '#12345g', 'red', '#1234567']) expect(normalizeHexColor(bad)).toBeNull();
  });
});
