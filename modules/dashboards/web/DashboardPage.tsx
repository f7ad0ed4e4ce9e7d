import { ActionIcon, Alert, Anchor, Breadcrumbs, Button, Container, Group, Loader, Menu, Paper, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconArrowsMaximize, IconDots, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Q, type Dashboard, type DashboardChart, type ProjectChart } from './api.ts';
import { AddChartModal } from './AddChartModal.tsx';
import { ChannelChart } from './ChannelChart.tsx';
import { ChartCard } from './ChartCard.tsx';

/** One chart of a dashboard: a project chart, or a channel's data points; each read with the viewer's access. */
function DashboardChartCard({ dashboardId, item, canEdit, onRemove }: { dashboardId: string; item: DashboardChart; canEdit: boolean; onRemove: () => void }) {
  const menu = (
    <>
      <Menu.Item component={Link} to={`/dashboards/${dashboardId}/charts/${item.id}`} leftSection={<IconArrowsMaximize size={14} aria-hidden />}>
        Open chart
      </Menu.Item>
      {canEdit && (
        <Menu.Item color="red" leftSection={<IconX size={14} aria-hidden />} onClick={onRemove}>
          Remove from dashboard
        </Menu.Item>
      )}
    </>
  );
  if (!item.readable) {
    return (
      <Paper withBorder p="md">
        <Group justify="space-between">
          <Text c="dimmed">This chart’s {item.kind === 'CHANNEL' ? 'channel' : 'project'} is gone or hidden from you.</Text>
          {canEdit && <Button size="xs" variant="subtle" color="red" onClick={onRemove}>Remove</Button>}
        </Group>
      </Paper>
    );
  }
  if (item.kind === 'CHANNEL' && item.channelId) {
    return (
      <Paper withBorder p="md" data-testid="chart-card">
        <Group justify="space-between" mb="xs" wrap="nowrap">
          <div style={{ minWidth: 0 }}>
            <Title order={2} size="h4" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>{item.title}</Title>
            <Anchor component={Link} to={`/channels/${item.channelId}`} size="xs">Channel: data points per {item.interval?.toLowerCase()}</Anchor>
          </div>
          <Menu position="bottom-end">
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`Actions for chart ${item.title ?? ''}`}>
                <IconDots size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>{menu}</Menu.Dropdown>
          </Menu>
        </Group>
        <ChannelChart channelId={item.channelId} title={item.title ?? 'Channel'} interval={item.interval ?? 'WEEK'} />
      </Paper>
    );
  }
  return <ProjectChartCard chartId={item.projectChartId!} menu={menu} />;
}

function ProjectChartCard({ chartId, menu }: { chartId: string; menu: React.ReactNode }) {
  const res = useGraphQL<{ projectChart: ProjectChart }>(Q.projectChart, { id: chartId });
  if (res.error) return <Alert color="red" title="The chart could not be loaded">{res.error.message}</Alert>;
  if (!res.data) return <Loader size="sm" aria-label="Loading chart" />;
  const chart = res.data.projectChart;
  return (
    <ChartCard
      chart={chart}
      menu={menu}
      subtitle={
        <Anchor component={Link} to={`/projects/${chart.projectId}/charts`} size="xs" lineClamp={1} maw={260}>
          {chart.projectTitle}
        </Anchor>
      }
    />
  );
}

/** /dashboards/{dashboardId} and /dashboards/{dashboardId}/charts/{chartId} (one chart, full width). */
export function DashboardPage() {
  const { dashboardId = '', chartId } = useParams();
  const host = useFieldbook();
  const navigate = useNavigate();
  const res = useGraphQL<{ dashboard: Dashboard }>(Q.dashboard, { id: dashboardId });
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dashboard = res.data?.dashboard;
  useEffect(() => {
    if (dashboard) document.title = `${dashboard.title} · Dashboards · Fieldbook`;
  }, [dashboard]);

  if (res.error) return <Container size={1084} py="lg"><Alert color="red" title="The dashboard could not be loaded">{res.error.message}</Alert></Container>;
  if (!dashboard) return <Container size={1084} py="lg"><Loader aria-label="Loading dashboard" /></Container>;

  const charts = chartId ? dashboard.charts.filter((c) => c.id === chartId) : dashboard.charts;
  async function remove(id: string) {
    await host.graphql(Q.removeChart, { id });
    if (chartId) navigate(`/dashboards/${dashboardId}`);
    await res.refetch();
  }
  async function rename() {
    try {
      await host.graphql(Q.updateDashboard, { id: dashboardId, t: renaming ?? '' });
      setRenaming(null);
      setError(null);
      await res.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  async function destroy() {
    if (!window.confirm(`Delete the dashboard “${dashboard!.title}”? Its charts stay in their projects.`)) return;
    await host.graphql(Q.deleteDashboard, { id: dashboardId });
    navigate('/dashboards');
  }

  return (
    <Container size={1200} py="lg">
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to="/dashboards">Dashboards</Anchor>
        {chartId && <Anchor component={Link} to={`/dashboards/${dashboardId}`} lineClamp={1} maw={400}>{dashboard.title}</Anchor>}
      </Breadcrumbs>
      <Group justify="space-between" mb="md" wrap="nowrap" align="flex-start">
        {renaming !== null ? (
          <Group align="flex-end" style={{ flex: 1 }}>
            <TextInput label="Dashboard title" value={renaming} maxLength={300} error={error} onChange={(e) => setRenaming(e.currentTarget.value)} style={{ flex: 1 }} />
            <Button onClick={() => void rename()}>Save</Button>
            <Button variant="default" onClick={() => setRenaming(null)}>Cancel</Button>
          </Group>
        ) : (
          <Title order={1} lineClamp={2} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{dashboard.title}</Title>
        )}
        {dashboard.canEdit && renaming === null && !chartId && (
          <Group gap="xs" wrap="nowrap">
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>Add chart</Button>
            <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setRenaming(dashboard.title)}>Rename</Button>
            <Button variant="default" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => void destroy()}>Delete</Button>
          </Group>
        )}
      </Group>
      {!charts.length && <Text c="dimmed">{chartId ? 'This chart is no longer on the dashboard.' : 'No charts yet. Add charts of your projects and channels.'}</Text>}
      <SimpleGrid cols={{ base: 1, md: chartId ? 1 : 2 }}>
        {charts.map((c) => (
          <DashboardChartCard key={c.id} dashboardId={dashboardId} item={c} canEdit={dashboard.canEdit} onRemove={() => void remove(c.id)} />
        ))}
      </SimpleGrid>
      {adding && <AddChartModal dashboardId={dashboardId} opened onClose={() => setAdding(false)} onAdded={() => { setAdding(false); void res.refetch(); }} />}
    </Container>
  );
}
