import { Anchor, Badge, Center, Container, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DeadLink, fetchPublic, PublicFrame, SharedObjectError, usePageTitle } from '@fieldbook/research/web/sharing';
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { METRIC_LABELS, MEASURE_LABELS, Q, type PublicChart, type PublicDashboard, type SharedChartOrDashboard } from './api.ts';
import { ChannelChart } from './ChannelChart.tsx';
import { ChartView } from './ChartView.tsx';

const DEAD = 'This link does not exist or is no longer shared. Ask whoever sent it for a new one.';

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

/** /p/chart/{shareToken} and /p/dashboard/{shareToken}: a shared chart or dashboard, read-only, for anyone with the link. */
export function PublicChartPage() {
  const { shareToken = '' } = useParams();
  const [state, setState] = useState<{ shared: SharedChartOrDashboard | null; error: SharedObjectError | null }>({ shared: null, error: null });
  const load = useCallback(
    (signal?: AbortSignal) => {
      setState({ shared: null, error: null });
      if (!/^[A-Za-z0-9]{12}$/.test(shareToken)) return setState({ shared: null, error: new SharedObjectError(DEAD, true) });
      fetchPublic<SharedChartOrDashboard>(shareToken, Q.shared, 'sharedObject', signal).then(
        (shared) => {
          const kind = shared.object.__typename;
          // A token of another kind of object is no chart: it reads as a dead link here.
          if (kind !== 'PublicDashboard' && kind !== 'PublicProjectChart') return setState({ shared: null, error: new SharedObjectError(DEAD, true) });
          setState({ shared, error: null });
        },
        (err: unknown) => {
          if (signal?.aborted) return;
          setState({ shared: null, error: err instanceof SharedObjectError ? err : new SharedObjectError('Something went wrong on our side. Please try again in a moment.', false) });
        },
      );
    },
    [shareToken],
  );
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal);
    return () => abort.abort();
  }, [load]);
  usePageTitle(state.shared?.object.title ?? (state.error ? 'Link not available' : 'Shared'));

  const o = state.shared?.object;
  return (
    <PublicFrame>
      {state.error ? (
        <DeadLink error={state.error} onRetry={() => load()} />
      ) : !state.shared || !o ? (
        <Center py="xl" role="status" aria-live="polite">
          <Loader size="sm" aria-label="Loading the shared page" />
        </Center>
      ) : (
        <Container size={o.__typename === 'PublicDashboard' ? 1200 : 864} px={0}>
          {o.__typename === 'PublicDashboard' ? <DashboardView dashboard={o} /> : <PublicChartCard chart={o} level={1} />}
          <Text size="xs" c="dimmed" ta="center" mt="lg">
            Shared {new Date(state.shared.sharedAt).toLocaleDateString(undefined, { dateStyle: 'long' })}.{' '}
            <Anchor href="/" size="xs" underline="always">
              Sign in to Fieldbook
            </Anchor>
          </Text>
        </Container>
      )}
    </PublicFrame>
  );
}
