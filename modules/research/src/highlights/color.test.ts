import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_ALPHA, highlightDisplayColor } from './color.ts';

describe('highlight colours (002 §9)', () => {
  it('paints the colour at an alpha of 0.2', () => {
    expect(HIGHLIGHT_ALPHA).toBe(0.2);
    expect(highlightDisplayColor('#ff8800')).toBe('rgba(255, 136, 0, 0.2)');
    expect(highlightDisplayColor('#0A0')).toBe('rgba(0, 170, 0, 0.2)');
  });
  it('has no paint without a valid colour', () => {
    expect(highlightDisplayColor(null)).toBeNull();
    expect(highlightDisplayColor('')).toBeNull();
    expect(highlightDisplayColor('orange')).toBeNull();
  });
});
