import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Q, type ChannelSummary } from './api.ts';
import { Sparkline } from './charts.tsx';

/** Managers see channels in the trash here and bring them back. */
function ChannelTrash({ onRestored }: { onRestored: () => void }) {
  const host = useFieldbook();
  const trash = useGraphQL<{ channels: ChannelSummary[] }>(Q.trashedChannels);
  const [error, setError] = useState<string | null>(null);
  if (!trash.data?.channels.length) return null;
  async function restore(id: string) {
    try {
      await host.graphql(Q.restoreChannel, { id });
      setError(null);
      await trash.refetch();
      onRestored();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <section aria-labelledby="channel-trash">
      <Title order={2} size="h4" id="channel-trash" mt="xl" mb="xs">
        In the trash
      </Title>
      {error && (
        <Alert color="red" mb="xs">
          {error}
        </Alert>
      )}
      <Stack gap="xs">
        {trash.data.channels.map((c) => (
          <Group key={c.id} justify="space-between">
            <Text>{c.name}</Text>
            <Button size="xs" variant="default" onClick={() => void restore(c.id)} aria-label={`Restore ${c.name}`}>
              Restore
            </Button>
          </Group>
        ))}
      </Stack>
    </section>
  );
}

/** /channels: every channel with its data point count and points per week. */
export function ChannelsPage() {
  const host = useFieldbook();
  const navigate = useNavigate();
  const list = useGraphQL<{ channels: ChannelSummary[] }>(Q.channels);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const canCreate = host.permissions.includes('projects:create');
  const canManage = host.permissions.includes('projects:delete');

  async function create() {
    if (!name.trim()) return setError('Give the channel a name.');
    try {
      const { createChannel } = await host.graphql<{ createChannel: ChannelSummary }>(Q.createChannel, {
        input: { name },
      });
      navigate(`/channels/${createChannel.id}`);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <Container size={1084} py="lg">
      <Group justify="space-between" mb="md">
        <Title order={1}>Channels</Title>
        {canCreate && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setOpen(true)}>
            New channel
          </Button>
        )}
      </Group>
      <Text c="dimmed" mb="lg">
        Customer feedback from support tickets, chats, reviews, calls and surveys.
      </Text>
      {list.error && (
        <Alert color="red" title="The channels could not be loaded">
          {list.error.message}
        </Alert>
      )}
      {list.data && !list.data.channels.length && (
        <Paper withBorder p="xl">
          <Text fw={600}>No channels yet</Text>
          <Text c="dimmed">Create a channel, then import a CSV file or push data points with the API.</Text>
        </Paper>
      )}
      {!!list.data?.channels.length && (
        <Table aria-label="Channels" verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Channel</Table.Th>
              <Table.Th>Data points</Table.Th>
              <Table.Th>Last 12 weeks</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.channels.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/channels/${c.id}`} fw={600}>
                    {c.name}
                  </Anchor>
                  {c.description && (
                    <Text size="sm" c="dimmed">
                      {c.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{c.dataPointCount.toLocaleString()}</Table.Td>
                <Table.Td>
                  <Sparkline
                    values={c.weeklyDataPoints}
                    label={`${c.name}: data points per week, ${c.weeklyDataPoints.join(', ')}`}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canManage && <ChannelTrash onRestored={() => void list.refetch()} />}
      <Modal opened={open} onClose={() => setOpen(false)} title="New channel">
        <Stack>
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
            maxLength={200}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button onClick={() => void create()}>Create channel</Button>
          </Group>
        </Stack>
      </Modal>
    </Container>
  );
}
