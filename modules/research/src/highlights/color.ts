import { normalizeHexColor } from '../projects/color.ts';

/** Highlight colours are shown at an alpha of 0.2 (002 §9), so the text under them stays readable. */
export const HIGHLIGHT_ALPHA = 0.2;

/** The colour a highlight is painted with: its hex colour as rgba at alpha 0.2; null without a colour. */
export function highlightDisplayColor(color: string | null | undefined): string | null {
  const hex = color ? normalizeHexColor(color) : null;
  if (!hex) return null;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${HIGHLIGHT_ALPHA})`;
}
