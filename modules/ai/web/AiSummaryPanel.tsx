import { Alert, Anchor, Blockquote, Button, Group, Loader, Select, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconSparkles } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { AiStepsPanel } from './AiStepsPanel.tsx';
import { postEvents } from './events.ts';
import { SUMMARY_FIELDS, type AiSummary, type SummaryPart } from './types.ts';

export const VIEWERS_CANNOT_SUMMARIZE = 'Viewers cannot generate summaries';
export const NOT_ENOUGH_CONTENT = 'Not enough content to summarize';

const KINDS = [
  { value: 'paragraph', label: 'Paragraphs' },
  { value: 'chapter', label: 'Chapters' },
  { value: 'streaming', label: 'Streaming' },
];

/**
 * Where a quote is in the document the summary is on: a hash the note page reads (000 §2), the
 * words for a quote of the document itself, the highlight's id for a quote of one of its highlights.
 */
function quoteHash(objectId: string, q: { itemId: string; text: string }): string {
  const params = new URLSearchParams(q.itemId === objectId ? { text: q.text } : { highlight: q.itemId });
  return `#${params.toString()}`;
}

function Parts({ parts, objectId }: { parts: SummaryPart[]; objectId: string }) {
  return (
    <Stack gap="xs">
      {parts.map((p, i) =>
        p.type === 'text' ? (
          <Text key={i} size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {p.text}
          </Text>
        ) : p.type === 'section' ? (
          <div key={i}>
            <Text size="sm" fw={600}>
              {p.startTime ? `${p.startTime} · ` : ''}
              {p.title}
            </Text>
            <Text size="sm">{p.text}</Text>
          </div>
        ) : (
          <Blockquote key={i} p="xs" cite={null}>
            {/* Each quote opens its passage, marked, in the document beside this panel. */}
            <Anchor component={Link} to={{ hash: quoteHash(objectId, p) }} size="sm" c="inherit" underline="hover">
              “{p.text}”
            </Anchor>
          </Blockquote>
        ),
      )}
    </Stack>
  );
}

const partsOf = (s: AiSummary): SummaryPart[] => [
  ...(s.text ? s.text.split('\n\n').map((text) => ({ type: 'text' as const, text })) : []),
  ...s.sections.map((x) => ({ type: 'section' as const, ...x })),
  ...s.quotes.map((q) => ({ type: 'quote' as const, ...q })),
];

/**
 * The AI summary of a note or insight in its side panel: the stored one, and for anyone but
 * viewers a framework, a kind and Generate, the summary appearing as it is written. Quotes shown
 * are only those the server found word for word in their source.
 */
export function AiSummaryPanel({
  objectType,
  objectId,
  onNoteChanged,
}: {
  objectType: 'NOTE' | 'INSIGHT';
  objectId: string;
  onNoteChanged?: () => void;
}) {
  const host = useFieldbook();
  const stored = useGraphQL<{
    aiSummary: AiSummary | null;
    summaryFrameworks: Array<{ framework: string; label: string; isDefault: boolean }>;
  }>(
    `query($t: SummaryObjectType!, $id: ID!) { aiSummary(objectType: $t, objectId: $id) { ${SUMMARY_FIELDS} } summaryFrameworks { framework label isDefault } }`,
    { t: objectType, id: objectId },
  );
  const [framework, setFramework] = useState<string | null>('Summary');
  const [kind, setKind] = useState<string | null>('paragraph');
  const [parts, setParts] = useState<SummaryPart[] | null>(null);
  const [result, setResult] = useState<AiSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const viewer = !host.permissions.includes('notes:update');

  async function generate() {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setParts([]);
    setResult(null);
    setError(null);
    setBusy(true);
    try {
      await postEvents(
        host,
        '/api/ai/summaries/stream',
        { objectType, objectId, kind, framework },
        (event, data) => {
          if (event === 'part') setParts((ps) => [...(ps ?? []), data as SummaryPart]);
          else if (event === 'done') setResult(data as AiSummary);
          else if (event === 'error') setError((data as { message: string }).message);
        },
        controller.signal,
      );
    } catch (err) {
      if (!controller.signal.aborted) setError(err instanceof Error ? err.message : String(err));
    } finally {
      if (abort.current === controller) setBusy(false);
    }
  }

  const shown = result ?? (parts ? null : (stored.data?.aiSummary ?? null));
  const frameworks = stored.data?.summaryFrameworks ?? [];
  const options = [
    {
      group: 'Suggested',
      items: frameworks.filter((f) => f.isDefault).map((f) => ({ value: f.framework, label: f.label })),
    },
    {
      group: 'More',
      items: frameworks.filter((f) => !f.isDefault).map((f) => ({ value: f.framework, label: f.label })),
    },
  ];
  const button = (
    <Button
      size="xs"
      leftSection={<IconSparkles size={14} aria-hidden />}
      onClick={() => void generate()}
      loading={busy}
      disabled={viewer || framework === 'CustomPrompt'}
    >
      {shown || parts ? 'Summarize again' : 'Summarize'}
    </Button>
  );

  return (
    <Stack gap="sm" data-testid="ai-summary">
      <Title order={3} fz="sm">
        AI summary
      </Title>
      <Group gap="xs" align="flex-end">
        <Select
          label="Framework"
          size="xs"
          data={options}
          value={framework}
          onChange={setFramework}
          allowDeselect={false}
          style={{ flex: 1, minWidth: 140 }}
        />
        <Select label="Kind" size="xs" data={KINDS} value={kind} onChange={setKind} allowDeselect={false} w={120} />
        {viewer ? (
          <Tooltip label={VIEWERS_CANNOT_SUMMARIZE}>
            <span tabIndex={0} aria-label={VIEWERS_CANNOT_SUMMARIZE}>
              {button}
            </span>
          </Tooltip>
        ) : (
          button
        )}
      </Group>
      {error && (
        <Alert color="red" title="No summary">
          {error}
        </Alert>
      )}
      {result?.status === 'NOT_ENOUGH_DATA' && (
        <Text size="sm" c="dimmed">
          {NOT_ENOUGH_CONTENT}
        </Text>
      )}
      <div aria-live="polite" aria-busy={busy}>
        {parts && !result && <Parts parts={parts} objectId={objectId} />}
        {busy && <Loader size="xs" mt="xs" aria-label="Writing the summary" />}
        {shown && shown.status === 'OK' && (
          <Parts parts={result ? partsOf(result) : partsOf(shown)} objectId={objectId} />
        )}
      </div>
      {shown?.provenance && (
        <Text size="xs" c="dimmed" data-testid="ai-provenance">
          {shown.provenance.label}
          {shown.droppedQuotes > 0
            ? ` · ${shown.droppedQuotes} quote${shown.droppedQuotes === 1 ? '' : 's'} not found in the source removed`
            : ''}
        </Text>
      )}
      {stored.loading && !shown && <Loader size="xs" aria-label="Loading the summary" />}
      {objectType === 'NOTE' && (
        <AiStepsPanel
          noteId={objectId}
          onNoteChanged={onNoteChanged}
          onChanged={() => {
            // An accepted or undone summary replaces what is shown.
            setResult(null);
            setParts(null);
            void stored.refetch();
          }}
        />
      )}
    </Stack>
  );
}
