/**
 * Colours are stored as six-digit lower-case hex (`#a1b2c3`); people may type the three-digit
 * short form, which is expanded (000 §5, 002 §5).
 */
const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The canonical form of a hex colour, or null when the text is not one. */
export function normalizeHexColor(input: string): string | null {
  const match = HEX.exec(input.trim());
  if (!match) return null;
  const digits = match[1]!.toLowerCase();
  const six = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return `#${six}`;
}

export const isHexColor = (input: string): boolean => normalizeHexColor(input) !== null;

/**
 * The palette new select options and tags draw from. Mid-tone colours, so a label in either
 * light or dark text stays readable on them.
 */
export const LABEL_PALETTE = [
  '#e5484d',
  '#f76b15',
  '#ffc53d',
  '#46a758',
  '#12a594',
  '#0090ff',
  '#3e63dd',
  '#8e4ec6',
  '#d6409f',
  '#a18072',
  '#8d8d8d',
  '#0d74ce',
] as const;

/**
 * The colour of a new option, derived from its label (000 §5): the same label always gets the
 * same colour, whatever its case or surrounding spaces, so re-imported data looks the same.
 */
export function colorFromLabel(label: string): string {
  const text = label.trim().toLowerCase();
  // FNV-1a: cheap, stable across runtimes, and spreads short labels well.
  let hash = 0x811c9dc5;
  for (const ch of text) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return LABEL_PALETTE[hash % LABEL_PALETTE.length]!;
}

/** Highlights are painted in their tag colour at an alpha of 0.2 (002 §9). */
export const HIGHLIGHT_ALPHA = 0.2;

/** The translucent fill of a highlight in `color` (any hex form), as CSS `rgba(...)`. */
export function highlightFill(color: string): string {
  const hex = normalizeHexColor(color);
  if (!hex) throw new Error(`Not a hex colour: ${color}`);
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${HIGHLIGHT_ALPHA})`;
}
