import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorLine } from '../ui/errors.ts';
import { notifyError } from '../ui/layout.tsx';
import { count, type BulkResult } from './run-each.ts';

export type TrashType = 'NOTE' | 'INSIGHT' | 'HIGHLIGHT';

const RESTORE = `mutation BrowseRestoreItem($type: TrashItemType!, $id: ID!) { restore(type: $type, id: $id) }`;
const WORDS: Record<TrashType, [string, string]> = {
  NOTE: ['note', 'notes'],
  INSIGHT: ['insight', 'insights'],
  HIGHLIGHT: ['highlight', 'highlights'],
};

/**
 * Says what a move to the trash did: all of it, or which part and why the rest stayed. When the
 * person may restore (`graphql` given), the message offers to undo it.
 */
export function announceTrashed(
  type: TrashType,
  result: BulkResult,
  undo?: { graphql: (query: string, variables: Record<string, unknown>) => Promise<unknown>; onRestored(): void },
) {
  const [one, many] = WORDS[type];
  if (!result.done.length) {
    notifyError(
      result.failed[0]?.error,
      result.failed.length === 1
        ? `The ${one} was not moved to the trash`
        : `None of the ${many} were moved to the trash`,
    );
    return;
  }
  const id = `trashed-${Date.now()}`;
  const restore = async () => {
    notifications.hide(id);
    try {
      for (const itemId of result.done) await undo!.graphql(RESTORE, { type, id: itemId });
      notifications.show({ color: 'teal', message: `${count(result.done.length, one, many)} restored.` });
    } catch (err) {
      notifyError(err, 'Not everything could be restored');
    }
    undo!.onRestored();
  };
  const partial = result.failed.length
    ? ` ${count(result.failed.length, one, many)} could not be: ${errorLine(result.failed[0]!.error)}`
    : '';
  notifications.show({
    id,
    color: result.failed.length ? 'orange' : 'teal',
    autoClose: 8000,
    message: (
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="sm">
          {count(result.done.length, one, many)} moved to the trash.{partial}
        </Text>
        {undo && (
          <Button size="compact-xs" variant="light" onClick={() => void restore()}>
            Undo
          </Button>
        )}
      </Group>
    ),
  });
}
