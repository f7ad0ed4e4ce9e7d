import { Blockquote, Box, List, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { toolLabel, type DiffLine, type Pending } from './api.ts';

const SIGN: Record<DiffLine['kind'], string> = { ADDED: '+', REMOVED: '−', SAME: ' ', SKIPPED: '⋯' };
const SPOKEN: Record<DiffLine['kind'], string> = {
  ADDED: 'Added: ',
  REMOVED: 'Removed: ',
  SAME: 'Unchanged: ',
  SKIPPED: '',
};

/**
 * A note's text before and after, one paragraph a row: removed rows in red marked −, added rows in
 * green marked +, kept rows plain, long kept runs folded. The sign and colour are not the only cue:
 * each row is an <ins> or <del> and starts with hidden words a screen reader reads out.
 */
function Diff({ lines }: { lines: DiffLine[] }) {
  const removed = lines.filter((l) => l.kind === 'REMOVED').length;
  const added = lines.filter((l) => l.kind === 'ADDED').length;
  return (
    <Box
      role="group"
      aria-label={`Change to the note: ${removed} paragraph${removed === 1 ? '' : 's'} removed, ${added} added`}
      data-testid="pending-diff"
      style={{
        border: '1px solid var(--mantine-color-gray-4)',
        borderRadius: 'var(--mantine-radius-sm)',
        background: 'var(--mantine-color-body)',
        maxHeight: 360,
        overflowY: 'auto',
      }}
      tabIndex={0}
    >
      <Text size="xs" c="dimmed" px="xs" py={4} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <span aria-hidden>− removed · + added</span>
        <VisuallyHidden>Each paragraph is read out as removed, added or unchanged.</VisuallyHidden>
      </Text>
      {lines.map((line, i) => {
        const Row = line.kind === 'ADDED' ? 'ins' : line.kind === 'REMOVED' ? 'del' : 'div';
        return (
          <Row
            key={i}
            data-kind={line.kind}
            style={{
              display: 'flex',
              gap: 8,
              padding: '2px 8px',
              textDecoration: 'none',
              fontSize: 'var(--mantine-font-size-sm)',
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              // Tinted backgrounds with dark green and red text: contrast above 4.5:1 (axe checks it).
              background:
                line.kind === 'ADDED'
                  ? 'var(--mantine-color-green-1)'
                  : line.kind === 'REMOVED'
                    ? 'var(--mantine-color-red-1)'
                    : undefined,
              color:
                line.kind === 'ADDED'
                  ? '#0b5d1e'
                  : line.kind === 'REMOVED'
                    ? '#9b1c1c'
                    : line.kind === 'SKIPPED'
                      ? 'var(--mantine-color-dimmed)'
                      : undefined,
              fontStyle: line.kind === 'SKIPPED' ? 'italic' : undefined,
            }}
          >
            <span
              aria-hidden
              style={{ fontFamily: 'var(--mantine-font-family-monospace)', fontWeight: 700, width: 10 }}
            >
              {SIGN[line.kind]}
            </span>
            <span>
              <VisuallyHidden>{SPOKEN[line.kind]}</VisuallyHidden>
              {line.kind === 'SKIPPED' ? `${line.text} not shown` : line.text || ' '}
            </span>
          </Row>
        );
      })}
    </Box>
  );
}

/**
 * What the agent will do if the person confirms, as they read it: the action, where (a project,
 * a note by its title, the addresses), the title it gives, the change to a note as before and
 * after, the text it sends, and what will not happen as the agent asked.
 */
export function PendingAction({ pending }: { pending: Pending }) {
  const s = pending.summary;
  if (!s) {
    // Paused before actions were described: the tool and its input as they are.
    return (
      <Text size="xs" c="dimmed" mb="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {toolLabel(pending.toolName)}: {JSON.stringify(pending.input, null, 1).slice(0, 600)}
      </Text>
    );
  }
  const diff = s.diff ?? null;
  const warnings = s.warnings ?? [];
  return (
    <Stack gap={6} mb="xs" data-testid="pending-action">
      <Text size="sm" fw={700}>
        {s.action}
      </Text>
      {s.target && (
        <Text size="sm">
          {pending.toolName === 'send_email' ? 'To' : 'Where'}:{' '}
          <Text span fw={500}>
            {s.target}
          </Text>
        </Text>
      )}
      {s.title && (
        <Text size="sm">
          {pending.toolName === 'send_email' ? 'Subject' : 'Title'}:{' '}
          <Text span fw={500}>
            {s.title}
          </Text>
        </Text>
      )}
      {s.details.length > 0 && (
        <List size="sm" spacing={2}>
          {s.details.map((d, i) => (
            <List.Item key={i} style={{ wordBreak: 'break-word' }}>
              {d}
            </List.Item>
          ))}
        </List>
      )}
      {diff && diff.length > 0 ? (
        <Diff lines={diff} />
      ) : (
        s.preview && (
          <Blockquote
            p="xs"
            cite={null}
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 360, overflowY: 'auto' }}
            aria-label={pending.toolName === 'send_email' ? 'The message it will send' : 'Text it will write'}
          >
            <Text size="sm">{s.preview}</Text>
          </Blockquote>
        )
      )}
      {warnings.length > 0 && (
        <Box role="note" aria-label="What will not happen" data-testid="pending-warnings">
          {warnings.map((w, i) => (
            <Text key={i} size="sm" c="red.9" style={{ display: 'flex', gap: 6, alignItems: 'flex-start' }}>
              <IconAlertTriangle size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
              {w}
            </Text>
          ))}
        </Box>
      )}
    </Stack>
  );
}
