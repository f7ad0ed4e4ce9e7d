import {
  ActionIcon,
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Container,
  Group,
  Loader,
  Menu,
  Paper,
  SimpleGrid,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconArrowsMaximize, IconDots, IconPencil, IconPlus, IconShare, IconTrash, IconX } from '@tabler/icons-react';
import { ShareDialog } from '@fieldbook/research/web/sharing';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  CHANNEL_TYPE_LABELS,
  MEASURE_LABELS,
  Q,
  type Dashboard,
  type DashboardChart,
  type ProjectChart,
} from './api.ts';
import { AddChartModal } from './AddChartModal.tsx';
import { ChannelChart } from './ChannelChart.tsx';
import { ChartCard } from './ChartCard.tsx';
import { CHART_SHARE_SCOPE, DASHBOARD_SHARE_SCOPE } from './share-scope.ts';
import { ThemePointsDrawer } from './ThemePointsDrawer.tsx';

/** One chart of a dashboard: a project chart, or a channel's data points; each read with the viewer's access. */
function DashboardChartCard({
  dashboardId,
  item,
  canEdit,
  canShare,
  onRemove,
}: {
  dashboardId: string;
  item: DashboardChart;
  canEdit: boolean;
  canShare: boolean;
  onRemove: () => void;
}) {
  const [theme, setTheme] = useState<{ id: string; title: string } | null>(null);
  const [sharing, setSharing] = useState(false);
  const menu = (
    <>
      <Menu.Item
        component={Link}
        to={`/dashboards/${dashboardId}/charts/${item.id}`}
        leftSection={<IconArrowsMaximize size={14} aria-hidden />}
      >
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
          <Text c="dimmed">
            This chart’s {item.kind === 'CHANNEL' ? 'channel' : 'project'} is gone or hidden from you.
          </Text>
          {canEdit && (
            <Button size="xs" variant="subtle" color="red" onClick={onRemove}>
              Remove
            </Button>
          )}
        </Group>
      </Paper>
    );
  }
  if (item.kind === 'CHANNEL' && item.channelId) {
    const data = item.channelData;
    return (
      <Paper withBorder p="md" data-testid="chart-card">
        <Group justify="space-between" mb="xs" wrap="nowrap">
          <div style={{ minWidth: 0 }}>
            <Title order={2} size="h4" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {item.title}
            </Title>
            <Anchor component={Link} to={`/channels/${item.channelId}`} size="xs">
              Channel: {MEASURE_LABELS[item.measure ?? 'OVER_TIME'].toLowerCase()}
              {item.measure !== 'BY_THEME' ? `, per ${item.interval?.toLowerCase() ?? 'week'}` : ''} (
              {CHANNEL_TYPE_LABELS[item.chartType ?? 'BAR'].toLowerCase()})
            </Anchor>
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
        {data ? (
          <ChannelChart title={item.title ?? 'Channel'} data={data} onSelectTheme={setTheme} />
        ) : (
          <Text c="dimmed">This chart’s channel is gone or hidden from you.</Text>
        )}
        {data && data.themes.length > 0 && (
          <Text size="xs" c="dimmed" mt="xs">
            Click a theme’s{' '}
            {item.chartType === 'PIE' ? 'slice' : item.chartType === 'LINE' ? 'point or legend entry' : 'bar'} to read
            its data points.
          </Text>
        )}
        <ThemePointsDrawer channelId={item.channelId} theme={theme} onClose={() => setTheme(null)} />
      </Paper>
    );
  }
  return (
    <>
      <ProjectChartCard
        chartId={item.projectChartId!}
        menu={menu}
        onShare={canShare ? () => setSharing(true) : undefined}
      />
      {sharing && (
        <ShareDialog
          opened
          onClose={() => setSharing(false)}
          objectType="projectChart"
          objectId={item.projectChartId!}
          what="chart"
          scope={CHART_SHARE_SCOPE}
        />
      )}
    </>
  );
}

function ProjectChartCard({
  chartId,
  menu,
  onShare,
}: {
  chartId: string;
  menu: React.ReactNode;
  onShare: (() => void) | undefined;
}) {
  const res = useGraphQL<{ projectChart: ProjectChart }>(Q.projectChart, { id: chartId });
  if (res.error)
    return (
      <Alert color="red" title="The chart could not be loaded">
        {res.error.message}
      </Alert>
    );
  if (!res.data) return <Loader size="sm" aria-label="Loading chart" />;
  const chart = res.data.projectChart;
  return (
    <ChartCard
      chart={chart}
      menu={menu}
      onShare={onShare}
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
  const [sharing, setSharing] = useState(false);
  // Sharing widens who may read, so it takes the right to change access (Contributor and above).
  const canShare = host.permissions.includes('acl:write');
  const dashboard = res.data?.dashboard;
  useEffect(() => {
    if (dashboard) document.title = `${dashboard.title} · Dashboards · Fieldbook`;
  }, [dashboard]);

  if (res.error)
    return (
      <Container size={1084} py="lg">
        <Alert color="red" title="The dashboard could not be loaded">
          {res.error.message}
        </Alert>
      </Container>
    );
  if (!dashboard)
    return (
      <Container size={1084} py="lg">
        <Loader aria-label="Loading dashboard" />
      </Container>
    );

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
        <Anchor component={Link} to="/dashboards">
          Dashboards
        </Anchor>
        {chartId && (
          <Anchor component={Link} to={`/dashboards/${dashboardId}`} lineClamp={1} maw={400}>
            {dashboard.title}
          </Anchor>
        )}
      </Breadcrumbs>
      <Group justify="space-between" mb="md" wrap="nowrap" align="flex-start">
        {renaming !== null ? (
          <Group align="flex-end" style={{ flex: 1 }}>
            <TextInput
              label="Dashboard title"
              value={renaming}
              maxLength={300}
              error={error}
              onChange={(e) => setRenaming(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button onClick={() => void rename()}>Save</Button>
            <Button variant="default" onClick={() => setRenaming(null)}>
              Cancel
            </Button>
          </Group>
        ) : (
          <Title order={1} lineClamp={2} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {dashboard.title}
          </Title>
        )}
        {renaming === null && !chartId && (dashboard.canEdit || canShare) && (
          <Group gap="xs" wrap="nowrap">
            {dashboard.canEdit && (
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
                Add chart
              </Button>
            )}
            {canShare && (
              <Button
                variant="default"
                leftSection={<IconShare size={16} aria-hidden />}
                onClick={() => setSharing(true)}
              >
                Share
              </Button>
            )}
            {dashboard.canEdit && (
              <Button
                variant="default"
                leftSection={<IconPencil size={16} aria-hidden />}
                onClick={() => setRenaming(dashboard.title)}
              >
                Rename
              </Button>
            )}
            {dashboard.canEdit && (
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => void destroy()}
              >
                Delete
              </Button>
            )}
          </Group>
        )}
      </Group>
      {!charts.length && (
        <Text c="dimmed">
          {chartId
            ? 'This chart is no longer on the dashboard.'
            : 'No charts yet. Add charts of your projects and channels.'}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: chartId ? 1 : 2 }}>
        {charts.map((c) => (
          <DashboardChartCard
            key={c.id}
            dashboardId={dashboardId}
            item={c}
            canEdit={dashboard.canEdit}
            canShare={canShare}
            onRemove={() => void remove(c.id)}
          />
        ))}
      </SimpleGrid>
      {sharing && (
        <ShareDialog
          opened
          onClose={() => setSharing(false)}
          objectType="dashboard"
          objectId={dashboardId}
          what="dashboard"
          scope={DASHBOARD_SHARE_SCOPE}
        />
      )}
      {adding && (
        <AddChartModal
          dashboardId={dashboardId}
          opened
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            void res.refetch();
          }}
        />
      )}
    </Container>
  );
}
