import { Text } from '@mantine/core';
import type { RichDoc } from '../api.ts';
import { EmptyState } from './EmptyState.tsx';

const textOf = (node: RichDoc | null | undefined): string => {
  if (!node) return '';
  if (node.type === 'text') return typeof node.text === 'string' ? node.text : '';
  const inner = (node.content ?? []).map(textOf);
  return node.type === 'doc' ? inner.filter(Boolean).join('\n\n') : inner.join('');
};

/** The document's summary, when it has one. */
export function SummaryTab({ summary, kind }: { summary: RichDoc | null | undefined; kind: 'note' | 'insight' }) {
  const text = textOf(summary).trim();
  if (!text) {
    return (
      <EmptyState title="No summary yet">
        {kind === 'note' ? 'This note has no summary. Its highlights are the quickest way to see what matters in it.' : 'This insight has no summary yet.'}
      </EmptyState>
    );
  }
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
      {text}
    </Text>
  );
}
