import { Blockquote, List, Stack, Text } from '@mantine/core';
import { toolLabel, type Pending } from './api.ts';

/**
 * What the agent will do if the person confirms, as they read it: the action, where (a project or
 * note by its title), the title it gives, the start of the text it writes, its other inputs.
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
  return (
    <Stack gap={4} mb="xs" data-testid="pending-action">
      <Text size="sm" fw={600}>
        {s.action}
      </Text>
      {s.target && (
        <Text size="sm">
          Where:{' '}
          <Text span fw={500}>
            {s.target}
          </Text>
        </Text>
      )}
      {s.title && (
        <Text size="sm">
          Title:{' '}
          <Text span fw={500}>
            {s.title}
          </Text>
        </Text>
      )}
      {s.preview && (
        <Blockquote
          p="xs"
          cite={null}
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          aria-label="Text it will write"
        >
          <Text size="sm">{s.preview}</Text>
        </Blockquote>
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
    </Stack>
  );
}
