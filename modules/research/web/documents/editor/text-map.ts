import type { Node as PMNode } from '@tiptap/pm/model';

/**
 * The plain text of a document as the server derives it (notes' `contentText`, see
 * `src/notes/rich-text.ts`), with where each piece of it sits in the editor. Highlights point
 * into that text with UTF-16 offsets, so a selection in the editor and a stored highlight must
 * both go through this one mapping: text nodes as they are, a hard break as a newline, and a
 * newline between blocks (a node whose children are all text, hard breaks or empty nodes).
 */
export interface TextSegment {
  /** Editor position of the segment's first character. */
  pos: number;
  /** Offset of that character in the plain text. */
  offset: number;
  length: number;
}

export interface TextMap {
  text: string;
  segments: TextSegment[];
}

const NOT_BLOCKS = new Set(['doc', 'text', 'hardBreak']);

export function textMap(doc: PMNode): TextMap {
  type Piece = { pos: number; text: string };
  const blocks: Piece[][] = [];
  let current: Piece[] = [];
  const walk = (node: PMNode, pos: number): void => {
    if (node.isText) {
      current.push({ pos, text: node.text ?? '' });
      return;
    }
    if (node.type.name === 'hardBreak') {
      current.push({ pos, text: '\n' });
      return;
    }
    // Children of the document start at 0; of any other node, one past its opening token.
    const start = node.type.name === 'doc' ? 0 : pos + 1;
    const children: Array<{ child: PMNode; at: number }> = [];
    node.forEach((child, offset) => children.push({ child, at: start + offset }));
    const isBlock =
      !NOT_BLOCKS.has(node.type.name) &&
      children.every(({ child }) => child.isText || child.type.name === 'hardBreak' || child.childCount === 0);
    if (isBlock) {
      if (current.some((p) => p.text)) blocks.push(current);
      current = [];
      for (const { child, at } of children) walk(child, at);
      blocks.push(current);
      current = [];
      return;
    }
    for (const { child, at } of children) walk(child, at);
  };
  walk(doc, 0);
  if (current.some((p) => p.text)) blocks.push(current);

  let text = '';
  const segments: TextSegment[] = [];
  blocks.forEach((block, i) => {
    if (i > 0) text += '\n';
    for (const piece of block) {
      if (!piece.text) continue;
      segments.push({ pos: piece.pos, offset: text.length, length: piece.text.length });
      text += piece.text;
    }
  });
  return { text, segments };
}

/** The plain-text span of an editor selection, or null when it covers no text. */
export function selectionToOffsets(map: TextMap, from: number, to: number): { start: number; end: number } | null {
  let start: number | null = null;
  let end: number | null = null;
  for (const s of map.segments) {
    const segEnd = s.pos + s.length;
    if (segEnd <= from || s.pos >= to) continue;
    const a = s.offset + Math.max(0, from - s.pos);
    const b = s.offset + Math.min(s.length, to - s.pos);
    start = start === null ? a : Math.min(start, a);
    end = end === null ? b : Math.max(end, b);
  }
  return start !== null && end !== null && start < end ? { start, end } : null;
}

/** The editor ranges a plain-text span covers, one per text piece, to paint it. */
export function offsetsToRanges(map: TextMap, start: number, end: number): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  for (const s of map.segments) {
    const a = Math.max(start, s.offset);
    const b = Math.min(end, s.offset + s.length);
    if (a < b) ranges.push({ from: s.pos + (a - s.offset), to: s.pos + (b - s.offset) });
  }
  return ranges;
}
