import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Q, type Dashboard } from './api.ts';

/** /dashboards: the workspace's dashboards; contributors and above make new ones. */
export function DashboardsPage() {
  const host = useFieldbook();
  const navigate = useNavigate();
  const list = useGraphQL<{ dashboards: Dashboard[] }>(Q.dashboards);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const canCreate = host.permissions.includes('projects:update');
  useEffect(() => {
    document.title = 'Dashboards · Fieldbook';
  }, []);

  async function create() {
    if (!title.trim()) return setError('Give the dashboard a title.');
    try {
      const { createDashboard } = await host.graphql<{ createDashboard: Dashboard }>(Q.createDashboard, { t: title });
      navigate(`/dashboards/${createDashboard.id}`);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <Container size={1084} py="lg">
      <Group justify="space-between" mb="md">
        <Title order={1}>Dashboards</Title>
        {canCreate && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setOpen(true)}>
            New dashboard
          </Button>
        )}
      </Group>
      <Text c="dimmed" mb="lg">
        Charts of several projects and channels on one page.
      </Text>
      {list.error && (
        <Alert color="red" title="The dashboards could not be loaded">
          {list.error.message}
        </Alert>
      )}
      {!list.data && !list.error && <Loader aria-label="Loading dashboards" />}
      {list.data && !list.data.dashboards.length && <Text>No dashboards yet.</Text>}
      {!!list.data?.dashboards.length && (
        <Table highlightOnHover>
          <thead>
            <tr>
              <th>Dashboard</th>
              <th>Charts</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.dashboards.map((d) => (
              <tr key={d.id}>
                <td style={{ maxWidth: 560 }}>
                  <Anchor
                    component={Link}
                    to={`/dashboards/${d.id}`}
                    lineClamp={1}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {d.title}
                  </Anchor>
                </td>
                <td>{d.charts.length}</td>
                <td>{new Date(d.updatedAt).toLocaleDateString()}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Modal opened={open} onClose={() => setOpen(false)} title="New dashboard">
        <Stack>
          <TextInput
            label="Title"
            required
            maxLength={300}
            value={title}
            error={error}
            onChange={(e) => setTitle(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && void create()}
          />
          <Group justify="flex-end">
            <Button onClick={() => void create()}>Create dashboard</Button>
          </Group>
        </Stack>
      </Modal>
    </Container>
  );
}
