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

/** A rich text document: a ProseMirror/TipTap JSON node tree, within the size limit. */
export const richTextSchema = (field: string) =>
  z
    .custom<RichTextNode>((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { type?: unknown }).type === 'string', {
      message: `${field} must be a rich text document (a JSON object with a type).`,
    })
    .superRefine((doc, ctx) => {
      const size = JSON.stringify(doc).length;
      if (size > RICH_TEXT_MAX) {
        ctx.addIssue({ code: 'custom', message: `${field} can be at most 5,000,000 characters (serialised); it has ${size.toLocaleString('en-US')}.` });
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
    const isBlock = !BLOCKS_WITHOUT_BREAK.has(node.type) && children.every((c) => c.type === 'text' || c.type === 'hardBreak' || !Array.isArray(c.content));
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
