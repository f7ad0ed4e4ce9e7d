import { describe, expect, it } from 'vitest';
import { colorFromLabel, highlightFill, isHexColor, LABEL_PALETTE, normalizeHexColor } from './colors.ts';

describe('normalizeHexColor', () => {
  it.each([
    ['#abc', '#aabbcc'],
    ['#ABC', '#aabbcc'],
    ['abc', '#aabbcc'],
    ['#a1B2c3', '#a1b2c3'],
    ['  #0f0 ', '#00ff00'],
    ['123456', '#123456'],
  ])('reads %j as %s', (input, expected) => {
    expect(normalizeHexColor(input)).toBe(expected);
  });

  it.each(['', '#', '#ab', '#abcd', '#abcde', '#abcdefa', '#ggg', 'red', 'rgb(1,2,3)', '#12345g'])(
    'rejects %j',
    (input) => {
      expect(normalizeHexColor(input)).toBeNull();
      expect(isHexColor(input)).toBe(false);
    },
  );
});

describe('colorFromLabel', () => {
  it('gives the same label the same colour whatever its case and spaces', () => {
    expect(colorFromLabel('Pricing')).toBe(colorFromLabel('  pricing '));
  });

  it('always answers a palette colour in canonical form', () => {
    for (const label of ['a', 'Onboarding', 'Billing issue', '日本', '🙂 happy', '']) {
      const color = colorFromLabel(label);
      expect(LABEL_PALETTE).toContain(color);
      expect(normalizeHexColor(color)).toBe(color);
    }
  });

  it('spreads different labels over the palette', () => {
    const colors = new Set(Array.from({ length: 60 }, (_, i) => colorFromLabel(`Option ${i}`)));
    expect(colors.size).toBeGreaterThan(LABEL_PALETTE.length / 2);
  });
});

describe('highlightFill', () => {
  it('paints the colour at alpha 0.2', () => {
    expect(highlightFill('#ff8000')).toBe('rgba(255, 128, 0, 0.2)');
    expect(highlightFill('#0f0')).toBe('rgba(0, 255, 0, 0.2)');
  });

  it('refuses what is not a hex colour', () => {
    expect(() => highlightFill('blue')).toThrow('Not a hex colour');
  });
});
