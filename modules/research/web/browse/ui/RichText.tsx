import { Anchor, Blockquote, List, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A rich text node as stored (TipTap / ProseMirror JSON). */
export interface RichNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
  content?: RichNode[];
}

const isNode = (v: unknown): v is RichNode => Boolean(v) && typeof v === 'object' && typeof (v as RichNode).type === 'string';

function inline(node: RichNode, key: number): ReactNode {
  if (node.type === 'hardBreak') return <br key={key} />;
  if (node.type !== 'text') return <span key={key}>{(node.content ?? []).map(inline)}</span>;
  let out: ReactNode = node.text ?? '';
  for (const mark of node.marks ?? []) {
    if (mark.type === 'bold') out = <strong>{out}</strong>;
    else if (mark.type === 'italic') out = <em>{out}</em>;
    else if (mark.type === 'code') out = <code>{out}</code>;
    else if (mark.type === 'strike') out = <s>{out}</s>;
    else if (mark.type === 'link' && typeof mark.attrs?.href === 'string' && /^https?:\/\//i.test(mark.attrs.href)) {
      out = (
        <Anchor href={mark.attrs.href} target="_blank" rel="noreferrer noopener">
          {out}
        </Anchor>
      );
    }
  }
  return <span key={key}>{out}</span>;
}

function block(node: RichNode, key: number): ReactNode {
  const children = node.content ?? [];
  switch (node.type) {
    case 'heading': {
      const level = Math.min(Math.max(Number(node.attrs?.level ?? 2) + 1, 2), 4) as 2 | 3 | 4;
      return (
        <Title key={key} order={level} fz={level === 2 ? 'xl' : 'lg'} mt="md" mb={4}>
          {children.map(inline)}
        </Title>
      );
    }
    case 'bulletList':
    case 'orderedList':
      return (
        <List key={key} type={node.type === 'orderedList' ? 'ordered' : 'unordered'} mb="sm" size="sm">
          {children.map((li, i) => (
            <List.Item key={i}>{(li.content ?? []).map((c, j) => (c.type === 'paragraph' ? <span key={j}>{(c.content ?? []).map(inline)}</span> : block(c, j)))}</List.Item>
          ))}
        </List>
      );
    case 'blockquote':
      return (
        <Blockquote key={key} p="sm" my="sm">
          {children.map(block)}
        </Blockquote>
      );
    case 'paragraph':
      return (
        <Text key={key} size="sm" mb="sm" style={{ lineHeight: 1.65 }}>
          {children.map(inline)}
        </Text>
      );
    default:
      return children.length ? <div key={key}>{children.map(block)}</div> : node.text ? <Text key={key}>{node.text}</Text> : null;
  }
}

/** Read-only rendering of a rich text document; unknown node types show their text. */
export function RichText({ doc }: { doc: unknown }) {
  if (!isNode(doc)) return null;
  return <div>{(doc.content ?? []).map(block)}</div>;
}

/** The plain text of a document, paragraphs separated by blank lines. */
export function plainTextOf(doc: unknown): string {
  if (!isNode(doc)) return '';
  const text = (n: RichNode): string => (n.type === 'text' ? (n.text ?? '') : n.type === 'hardBreak' ? '\n' : (n.content ?? []).map(text).join(''));
  return (doc.content ?? []).map(text).join('\n\n');
}

/** A document of paragraphs from plain text (blank lines split paragraphs). */
export function docFromText(value: string): RichNode {
  const paragraphs = value
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    type: 'doc',
    content: paragraphs.map((p) => ({
      type: 'paragraph',
      content: p.split('\n').flatMap((line, i) => [...(i > 0 ? [{ type: 'hardBreak' }] : []), ...(line ? [{ type: 'text', text: line }] : [])]),
    })),
  };
}
