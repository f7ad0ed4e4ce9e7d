/** A rich text node as stored (TipTap / ProseMirror JSON). */
export interface RichNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
  content?: RichNode[];
}

const isNode = (v: unknown): v is RichNode =>
  Boolean(v) && typeof v === 'object' && typeof (v as RichNode).type === 'string';

/** The plain text of a document, paragraphs separated by blank lines. */
export function plainTextOf(doc: unknown): string {
  if (!isNode(doc)) return '';
  const text = (n: RichNode): string =>
    n.type === 'text' ? (n.text ?? '') : n.type === 'hardBreak' ? '\n' : (n.content ?? []).map(text).join('');
  return (doc.content ?? []).map(text).join('\n\n');
}
