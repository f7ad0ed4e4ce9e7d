import { Divider, Stack, Text } from '@mantine/core';
import { AiSummaryPanel } from '@fieldbook/ai/web/summary';
import type { RichDoc } from '../api.ts';
import { EmptyState } from './EmptyState.tsx';

const textOf = (node: RichDoc | null | undefined): string => {
  if (!node) return '';
  if (node.type === 'text') return typeof node.text === 'string' ? node.text : '';
  const inner = (node.content ?? []).map(textOf);
  return node.type === 'doc' ? inner.filter(Boolean).join('\n\n') : inner.join('');
};

/**
 * The AI summary (written, streamed and checked by the AI module), then the document's own
 * summary. `onNoteChanged` is told when an AI step accepted or undone here changed the note.
 */
export function SummaryTab({
  summary,
  kind,
  id,
  onNoteChanged,
}: {
  summary: RichDoc | null | undefined;
  kind: 'note' | 'insight';
  id: string;
  onNoteChanged?: () => void;
}) {
  return (
    <Stack gap="md">
      <AiSummaryPanel objectType={kind === 'note' ? 'NOTE' : 'INSIGHT'} objectId={id} onNoteChanged={onNoteChanged} />
      <Divider />
      <WrittenSummary summary={summary} kind={kind} />
    </Stack>
  );
}

/** The document's summary, when it has one. */
function WrittenSummary({ summary, kind }: { summary: RichDoc | null | undefined; kind: 'note' | 'insight' }) {
  const text = textOf(summary).trim();
  if (!text) {
    return (
      <EmptyState title="No summary yet">
        {kind === 'note'
          ? 'This note has no summary. Its highlights are the quickest way to see what matters in it.'
          : 'This insight has no summary yet.'}
      </EmptyState>
    );
  }
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
      {text}
    </Text>
  );
}
