import { Badge, Button, Group, Paper, SegmentedControl, Table, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { q } from '../api.ts';
import { errorCode } from '../ui/errors.ts';
import { timeAgo, useCan, useLoad } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, PageFrame, SectionLoader, notifyDone, notifyError } from '../ui/layout.tsx';

type ItemType = 'PROJECT' | 'FOLDER' | 'NOTE' | 'INSIGHT' | 'HIGHLIGHT' | 'PERSON';
interface TrashItem {
  type: ItemType;
  id: string;
  title: string;
  projectId: string | null;
  deletedAt: string;
}
const TYPE_LABEL: Record<ItemType, string> = {
  PROJECT: 'Project',
  FOLDER: 'Folder',
  NOTE: 'Note',
  INSIGHT: 'Insight',
  HIGHLIGHT: 'Highlight',
  PERSON: 'Person',
};

/** /settings/trash: managers see what was deleted and bring it back. */
export function TrashPage() {
  const { graphql } = useFieldbook();
  const can = useCan();
  const [type, setType] = useState<ItemType | 'ALL'>('ALL');
  const trash = useLoad<{ trash: TrashItem[] }>(
    q.trash,
    { type: type === 'ALL' ? null : type },
    { skip: !can('projects:delete') },
  );
  const [restoring, setRestoring] = useState<string | null>(null);

  if (!can('projects:delete') || errorCode(trash.error) === 'FORBIDDEN') {
    return (
      <PageFrame title="Trash" width="content">
        <EmptyState icon={<IconTrash size={24} />} title="Only managers can open the trash">
          Ask a workspace manager or admin to restore something you deleted.
        </EmptyState>
      </PageFrame>
    );
  }

  async function restore(item: TrashItem) {
    setRestoring(item.id);
    try {
      await graphql(q.restore, { type: item.type, id: item.id });
      notifyDone(`${item.title || TYPE_LABEL[item.type]} was restored.`);
      await trash.reload();
    } catch (err) {
      notifyError(err, 'It was not restored');
    } finally {
      setRestoring(null);
    }
  }

  return (
    <PageFrame
      title="Trash"
      description="Deleted projects, folders, notes, insights, highlights and people. Restore brings an item back where it was."
      width="content"
    >
      <SegmentedControl
        aria-label="Kind of item"
        mb="md"
        value={type}
        onChange={(v) => setType(v as ItemType | 'ALL')}
        data={[
          { value: 'ALL', label: 'All' },
          ...(Object.keys(TYPE_LABEL) as ItemType[]).map((t) => ({
            value: t,
            label: t === 'PERSON' ? 'People' : `${TYPE_LABEL[t]}s`,
          })),
        ]}
      />
      {trash.error && !trash.data ? (
        <ErrorNote error={trash.error} title="The trash could not be loaded" onRetry={() => void trash.reload()} />
      ) : !trash.data ? (
        <SectionLoader label="Loading the trash…" />
      ) : trash.data.trash.length === 0 ? (
        <EmptyState icon={<IconTrash size={24} />} title="The trash is empty">
          Deleted items appear here.
        </EmptyState>
      ) : (
        <Paper withBorder>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Deleted</Table.Th>
                <Table.Th ta="right">
                  <span
                    style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
                  >
                    Actions
                  </span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {trash.data.trash.map((item) => (
                <Table.Tr key={`${item.type}:${item.id}`}>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {item.title || 'Untitled'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray" radius="sm">
                      {TYPE_LABEL[item.type]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {timeAgo(item.deletedAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <Button
                        size="compact-sm"
                        variant="light"
                        loading={restoring === item.id}
                        onClick={() => void restore(item)}
                        aria-label={`Restore ${item.title || TYPE_LABEL[item.type]}`}
                      >
                        Restore
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </PageFrame>
  );
}
