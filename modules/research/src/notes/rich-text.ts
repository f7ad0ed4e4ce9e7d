import { z } from 'zod';

/** Rich text is at most 5,000,000 characters, serialised (000 §9). */
export const RICH_TEXT_MAX = 5_000_000;

export interface RichTextNode {
  type: string;
  text?: string;
  content?: RichTextNode[];
  [key: string]: unknown;
}

const BLOCKS_WITHOUT_BREAK = new Set(['doc', 'text', 'hardBreak']);

/** Nodes nested deeper than this are refused: no editor makes them, and walking them must not overflow. */
export const RICH_TEXT_MAX_DEPTH = 100;

/**
 * What is wrong with a value as a rich text document, or null when it is one: every node an
 * object with a string `type`, `content` (when present) a list of nodes, `text` (when present) a
 * string, nested at most RICH_TEXT_MAX_DEPTH levels. Checked without recursion, so any input,
 * however deep, gets an answer.
 */
export function richTextProblem(value: unknown): string | null {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (
      typeof node !== 'object' ||
      node === null ||
      Array.isArray(node) ||
      typeof (node as { type?: unknown }).type !== 'string'
    ) {
      return depth === 1
        ? 'must be a rich text document (a JSON object with a type)'
        : 'has a node that is not a JSON object with a type';
    }
    if (depth > RICH_TEXT_MAX_DEPTH) return `is nested more than ${RICH_TEXT_MAX_DEPTH} levels deep, the limit`;
    const { content, text } = node as { content?: unknown; text?: unknown };
    if (text !== undefined && typeof text !== 'string') return 'has a text node whose text is not a string';
    if (content === undefined || content === null) continue;
    if (!Array.isArray(content)) return 'has a node whose content is not a list';
    for (const child of content) stack.push({ node: child, depth: depth + 1 });
  }
  return null;
}

/** A rich text document: a ProseMirror/TipTap JSON node tree, within the size and depth limits. */
export const richTextSchema = (field: string) =>
  z
    .custom<RichTextNode>(
      (v) =>
        typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { type?: unknown }).type === 'string',
      {
        message: `${field} must be a rich text document (a JSON object with a type).`,
      },
    )
    .superRefine((doc, ctx) => {
      const problem = richTextProblem(doc);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `${field} ${problem}.` });
        return;
      }
      const size = JSON.stringify(doc).length;
      if (size > RICH_TEXT_MAX) {
        ctx.addIssue({
          code: 'custom',
          message: `${field} can be at most 5,000,000 characters (serialised); it has ${size.toLocaleString('en-US')}.`,
        });
      }
    });

/**
 * The plain text of a document, the text highlights point into: text nodes as they are, a
 * hard break as a newline, and a newline between blocks (paragraphs, headings, list items).
 */
export function plainText(doc: RichTextNode | null | undefined): string {
  if (!doc) return '';
  const blocks: string[] = [];
  let current = '';
  const walk = (node: RichTextNode): void => {
    if (node.type === 'text') {
      current += typeof node.text === 'string' ? node.text : '';
      return;
    }
    if (node.type === 'hardBreak') {
      current += '\n';
      return;
    }
    const children = Array.isArray(node.content) ? node.content : [];
    const isBlock =
      !BLOCKS_WITHOUT_BREAK.has(node.type) &&
      children.every((c) => c.type === 'text' || c.type === 'hardBreak' || !Array.isArray(c.content));
    if (isBlock) {
      if (current) blocks.push(current);
      current = '';
      for (const c of children) walk(c);
      blocks.push(current);
      current = '';
      return;
    }
    for (const c of children) walk(c);
  };
  walk(doc);
  if (current) blocks.push(current);
  return blocks.join('\n');
}
