import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconArrowBackUp, IconCheck, IconX } from '@tabler/icons-react';
import { useEffect, useState, type ReactElement } from 'react';

export const VIEWERS_CANNOT_DECIDE = 'Viewers cannot accept, reject or undo what AI did';

interface StepRun {
  id: string;
  step: 'summarize' | 'highlights' | 'tags' | 'redact' | 'insights';
  mode: 'On' | 'Suggest';
  status: 'RUNNING' | 'DONE' | 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'UNDONE' | 'SKIPPED' | 'FAILED';
  detail: string;
  reason: string | null;
  label: string | null;
  createdAt: string;
  canUndo: boolean;
  canDecide: boolean;
  preview: string[];
}

const FIELDS = 'id step mode status detail reason label createdAt canUndo canDecide preview';
const STEP: Record<StepRun['step'], string> = {
  redact: 'Redaction',
  highlights: 'Highlights',
  tags: 'Tags',
  summarize: 'Summary',
  insights: 'Draft insight',
};
const STATUS: Record<StepRun['status'], { text: string; color: string }> = {
  RUNNING: { text: 'Running', color: 'blue' },
  DONE: { text: 'Done', color: 'green' },
  PENDING: { text: 'To review', color: 'yellow' },
  ACCEPTED: { text: 'Accepted', color: 'green' },
  REJECTED: { text: 'Rejected', color: 'gray' },
  UNDONE: { text: 'Undone', color: 'gray' },
  SKIPPED: { text: 'Skipped', color: 'gray' },
  FAILED: { text: 'Failed', color: 'red' },
};
/** Accepting or undoing these changes the note's text, highlights or their tags, which the open page must read again. */
const CHANGES_NOTE = new Set<StepRun['step']>(['redact', 'highlights', 'tags']);
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * What the workspace's AI steps did with this note, in the order they run: each step's outcome,
 * when, which model (or that it ran locally), why a step was skipped, and Accept / Reject for
 * what Suggest mode offers or Undo for what was done. `onNoteChanged` lets the page holding the
 * note's editor show the change at once; without it the panel says to reload.
 */
export function AiStepsPanel({
  noteId,
  onChanged,
  onNoteChanged,
}: {
  noteId: string;
  onChanged?: () => void;
  onNoteChanged?: () => void;
}) {
  const host = useFieldbook();
  const runs = useGraphQL<{ aiStepRuns: StepRun[] }>(`query($n: ID!) { aiStepRuns(noteId: $n) { ${FIELDS} } }`, {
    n: noteId,
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const viewer = !host.permissions.includes('notes:update');
  const list = runs.data?.aiStepRuns ?? [];
  const { refetch } = runs;
  const [openedAt] = useState(() => Date.now());
  // Steps run a few seconds after the text changes: look again while any is running, and for a
  // minute after opening a note none has run on yet (it was just written).
  const waiting = list.some((r) => r.status === 'RUNNING') || (runs.data !== null && list.length === 0);
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => {
      if (Date.now() - openedAt < 60_000 || list.length > 0) void refetch();
    }, 3000);
    return () => clearInterval(t);
  }, [waiting, refetch, openedAt, list.length]);

  async function act(run: StepRun, mutation: 'acceptAiStep' | 'rejectAiStep' | 'undoAiStep') {
    setBusy(`${run.id}:${mutation}`);
    setError(null);
    setNotice(null);
    try {
      await host.graphql(`mutation($id: ID!) { ${mutation}(id: $id) { id } }`, { id: run.id });
      await refetch();
      onChanged?.();
      if (mutation !== 'rejectAiStep' && CHANGES_NOTE.has(run.step)) {
        if (onNoteChanged) onNoteChanged();
        else setNotice('The note changed: reload the page to see its text and highlights as they are now.');
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  }

  const guarded = (button: ReactElement) =>
    viewer ? (
      <Tooltip label={VIEWERS_CANNOT_DECIDE}>
        <span tabIndex={0} aria-label={VIEWERS_CANNOT_DECIDE}>
          {button}
        </span>
      </Tooltip>
    ) : (
      button
    );

  return (
    <Stack gap="xs" data-testid="ai-steps" aria-labelledby="ai-steps-title">
      <Title order={3} fz="sm" id="ai-steps-title">
        AI steps
      </Title>
      {list.length === 0 && !runs.loading && (
        <Text size="sm" c="dimmed">
          Nothing has run on this note yet. The steps chosen in Settings → AI run a few seconds after its text changes.
        </Text>
      )}
      {error && (
        <Alert color="red" title="Not done">
          {error}
        </Alert>
      )}
      {notice && <Alert color="blue">{notice}</Alert>}
      {list.map((r) => (
        <Paper key={r.id} withBorder p="xs" radius="sm" data-testid={`ai-step-${r.step}`}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={600}>
              {STEP[r.step]}{' '}
              <Text span size="xs" c="dimmed" fw={400}>
                ({r.mode === 'On' ? 'On' : 'Suggest'})
              </Text>
            </Text>
            <Badge size="sm" variant="light" color={STATUS[r.status].color}>
              {STATUS[r.status].text}
            </Badge>
          </Group>
          <Text size="sm">{r.detail}</Text>
          {r.reason && (
            <Text size="xs" c="dimmed">
              {r.reason}
            </Text>
          )}
          {r.preview.length > 0 && (
            <List size="xs" spacing={2} mt={4}>
              {r.preview.map((p, i) => (
                <List.Item key={i}>{p}</List.Item>
              ))}
            </List>
          )}
          <Text size="xs" c="dimmed" mt={4}>
            {[r.label, when.format(new Date(r.createdAt))].filter(Boolean).join(' · ')}
          </Text>
          {(r.canDecide || r.canUndo) && (
            <Group gap="xs" mt={6}>
              {r.canDecide &&
                guarded(
                  <Button
                    size="compact-xs"
                    leftSection={<IconCheck size={12} aria-hidden />}
                    disabled={viewer}
                    loading={busy === `${r.id}:acceptAiStep`}
                    onClick={() => void act(r, 'acceptAiStep')}
                    aria-label={`Accept: ${STEP[r.step]}`}
                  >
                    Accept
                  </Button>,
                )}
              {r.canDecide &&
                guarded(
                  <Button
                    size="compact-xs"
                    variant="default"
                    leftSection={<IconX size={12} aria-hidden />}
                    disabled={viewer}
                    loading={busy === `${r.id}:rejectAiStep`}
                    onClick={() => void act(r, 'rejectAiStep')}
                    aria-label={`Reject: ${STEP[r.step]}`}
                  >
                    Reject
                  </Button>,
                )}
              {r.canUndo &&
                guarded(
                  <Button
                    size="compact-xs"
                    variant="default"
                    leftSection={<IconArrowBackUp size={12} aria-hidden />}
                    disabled={viewer}
                    loading={busy === `${r.id}:undoAiStep`}
                    onClick={() => void act(r, 'undoAiStep')}
                    aria-label={`Undo: ${STEP[r.step]}`}
                  >
                    Undo
                  </Button>,
                )}
            </Group>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
