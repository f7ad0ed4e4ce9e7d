import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { fetchPublic, SharedLinkPage, usePageTitle } from '@fieldbook/research/web/sharing';
import { useParams } from 'react-router';
import {
  METRIC_LABELS,
  MEASURE_LABELS,
  Q,
  type PublicChart,
  type PublicDashboard,
  type SharedChartOrDashboard,
} from './api.ts';
import { ChannelChart } from './ChannelChart.tsx';
import { ChartView } from './ChartView.tsx';

/** A shared project chart: its drawing and figures, read-only (nothing opens behind a bar). */
function PublicChartCard({ chart, subtitle, level }: { chart: PublicChart; subtitle?: string | null; level: 1 | 2 }) {
  return (
    <Paper withBorder p="md" data-testid="public-chart">
      <Title order={level} size={level === 1 ? 'h2' : 'h4'} lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
        {chart.title}
      </Title>
      <Group gap="xs" mt={4} mb="xs">
        <Badge variant="light" size="sm">
          {METRIC_LABELS[chart.metric]}
        </Badge>
        {subtitle && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {subtitle}
          </Text>
        )}
      </Group>
      <ChartView title={chart.title} type={chart.type} metric={chart.metric} items={chart.items} />
    </Paper>
  );
}

function DashboardView({ dashboard }: { dashboard: PublicDashboard }) {
  return (
    <Stack gap="lg">
      <Title order={1} fz={30} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
        {dashboard.title}
      </Title>
      {!dashboard.charts.length && <Text c="dimmed">This dashboard has no charts to show.</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {dashboard.charts.map((c) =>
          c.projectChart ? (
            <PublicChartCard key={c.id} chart={c.projectChart} subtitle={c.projectTitle} level={2} />
          ) : c.channel ? (
            <Paper key={c.id} withBorder p="md" data-testid="public-chart">
              <Title order={2} size="h4" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
                {c.title}
              </Title>
              <Text size="xs" c="dimmed" mt={4} mb="xs">
                {MEASURE_LABELS[c.channel.measure]}
              </Text>
              <ChannelChart title={c.title} data={c.channel} />
            </Paper>
          ) : null,
        )}
      </SimpleGrid>
    </Stack>
  );
}

/** A chart or dashboard behind a token; a token of another kind of object is no chart here (a dead link). */
async function loadChartOrDashboard(token: string, signal?: AbortSignal): Promise<SharedChartOrDashboard | null> {
  const shared = await fetchPublic<SharedChartOrDashboard>(token, Q.shared, 'sharedObject', signal);
  const kind = shared.object.__typename;
  return kind === 'PublicDashboard' || kind === 'PublicProjectChart' ? shared : null;
}

function SharedChartOrDashboardView({ shared }: { shared: SharedChartOrDashboard }) {
  usePageTitle(shared.object.title);
  const o = shared.object;
  return o.__typename === 'PublicDashboard' ? <DashboardView dashboard={o} /> : <PublicChartCard chart={o} level={1} />;
}

/** /p/chart/{shareToken} and /p/dashboard/{shareToken}: a shared chart or dashboard, read-only, for anyone with the link. */
export function PublicChartPage() {
  const { shareToken = '' } = useParams();
  return (
    <SharedLinkPage
      shareToken={shareToken}
      load={loadChartOrDashboard}
      width={(s) => (s.object.__typename === 'PublicDashboard' ? 1200 : 864)}
    >
      {(shared) => <SharedChartOrDashboardView shared={shared} />}
    </SharedLinkPage>
  );
}
