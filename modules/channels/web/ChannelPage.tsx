import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Container,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconUpload } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Q, type ChannelSummary, type DataPoint } from './api.ts';
import { TimeChart, type SeriesPoint } from './charts.tsx';
import {
  CHART_TYPES,
  formatChannelHash,
  parseChannelHash,
  PRESET_LABELS,
  PRESETS,
  rangeOf,
  type ChannelHashState,
  type ChartType,
  type Preset,
} from './hash.ts';
import { EditChannelModal } from './EditChannelModal.tsx';
import { ImportWizard } from './ImportWizard.tsx';
import { DatasetsPanel } from './sources/DatasetsPanel.tsx';
import { ThemesPanel } from './themes/ThemesPanel.tsx';
import { ChannelDatasets } from './ChannelDatasets.tsx';
import { ShareButton } from './ShareButton.tsx';
import { insightCreatePath } from './selection.ts';
import { dataPoints } from './count.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 25;
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const SENTIMENT_COLOR = { positive: 'teal', negative: 'red', mixed: 'yellow' } as const;

/** The channel view's hash state, kept in the URL as people change it. */
function useHashState(): [ChannelHashState, (patch: Partial<ChannelHashState>) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const state = parseChannelHash(location.hash);
  const set = useCallback(
    (patch: Partial<ChannelHashState>) =>
      navigate(
        { pathname: location.pathname, search: location.search, hash: formatChannelHash({ ...state, ...patch }) },
        { replace: true },
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [location.pathname, location.search, location.hash, navigate],
  );
  return [state, set];
}

/** /channels/{channelId} and /channels/{channelId}/data: the chart and the data points, newest first. */
export function ChannelPage() {
  const { channelId = '' } = useParams();
  const host = useFieldbook();
  const [state, setState] = useHashState();
  const range = rangeOf(state);
  const [periods, setPeriods] = useState(2);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState(0);
  const [editing, setEditing] = useState(false);
  // Data points selected to make an insight of, in the order they were picked.
  const [selected, setSelected] = useState<string[]>([]);
  const canCreateInsight = host.permissions.includes('insights:create');
  const [filterText, setFilterText] = useState(state.filter);
  const channel = useGraphQL<{ channel: ChannelSummary }>(Q.channel, { id: channelId });
  const series = useGraphQL<{ channelDataPointSeries: SeriesPoint[] }>(Q.series, {
    channelId,
    interval: 'WEEK',
    aggregationPeriods: periods,
    from: range.from,
    to: range.to,
  });
  const [points, setPoints] = useState<{
    nodes: DataPoint[];
    endCursor: string | null;
    hasNextPage: boolean;
    totalCount: number;
    totalCountIsEstimate: boolean;
  } | null>(null);
  const [pointsError, setPointsError] = useState<string | null>(null);
  const canImport = host.permissions.includes('imports:dataFile');
  const canDelete = host.permissions.includes('projects:delete');
  const canEdit = host.permissions.includes('projects:update');
  const navigate = useNavigate();
  async function trashChannel() {
    if (
      !window.confirm(
        'Move this channel and its data points to the trash? A manager can restore it from the channels page.',
      )
    )
      return;
    await host.graphql(Q.deleteChannel, { id: channelId });
    navigate('/channels');
  }

  const load = useCallback(
    async (after: string | null) => {
      try {
        const { channelDataPoints } = await host.graphql<{
          channelDataPoints: {
            nodes: DataPoint[];
            endCursor: string | null;
            hasNextPage: boolean;
            totalCount: number;
            totalCountIsEstimate: boolean;
          };
        }>(Q.points, {
          channelId,
          first: PAGE,
          after,
          search: state.filter || null,
          from: range.from,
          to: range.to,
        });
        setPoints((prev) =>
          after && prev
            ? { ...channelDataPoints, nodes: [...prev.nodes, ...channelDataPoints.nodes] }
            : channelDataPoints,
        );
        setPointsError(null);
      } catch (e) {
        setPointsError((e as Error).message);
      }
    },
    [host, channelId, state.filter, range.from, range.to],
  );
  useEffect(() => {
    void load(null);
  }, [load]);

  if (
    !UUID.test(channelId) ||
    channel.error?.message.includes('not found') ||
    channel.error?.message.includes('That channel')
  ) {
    return (
      <Container size={864} py="xl">
        <Title order={1}>This channel could not be found</Title>
        <Anchor component={Link} to="/channels">
          Go to channels
        </Anchor>
      </Container>
    );
  }

  return (
    <Container size={1084} py="lg">
      <Anchor component={Link} to="/channels" size="sm">
        Channels
      </Anchor>
      <Group justify="space-between" mb="md" mt={4}>
        <Title order={1}>{channel.data?.channel.name ?? 'Channel'}</Title>
        <Group gap="xs">
          {canEdit && channel.data && (
            <Button variant="default" onClick={() => setEditing(true)}>
              Edit channel
            </Button>
          )}
          {channel.data && <ShareButton objectType="channel" objectId={channelId} name={channel.data.channel.name} />}
          {canDelete && (
            <Button variant="default" color="red" onClick={() => void trashChannel()}>
              Delete channel
            </Button>
          )}
          {canImport && (
            <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setImporting(true)}>
              Import data
            </Button>
          )}
        </Group>
      </Group>
      {channel.data?.channel.description && (
        <Text c="dimmed" mt={-8} mb="md" style={{ whiteSpace: 'pre-wrap' }}>
          {channel.data.channel.description}
        </Text>
      )}
      {channel.error && <Alert color="red">{channel.error.message}</Alert>}
      {editing && channel.data && (
        <EditChannelModal
          channel={channel.data.channel}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            void channel.refetch();
          }}
        />
      )}

      <Paper withBorder p="md" mb="md">
        <Group align="flex-end" wrap="wrap" mb="sm">
          <Select
            label="Dates"
            data={PRESETS.filter((p) => p !== 'custom' || state.preset === 'custom').map((p) => ({
              value: p,
              label: PRESET_LABELS[p],
            }))}
            value={state.preset}
            onChange={(v) => setState({ preset: (v ?? 'all') as Preset, from: null, to: null })}
            allowDeselect={false}
            w={170}
          />
          <TextInput
            label="From"
            type="date"
            value={range.from ?? ''}
            onChange={(e) =>
              setState({ preset: 'custom', from: e.currentTarget.value || null, to: range.to ?? e.currentTarget.value })
            }
            w={160}
          />
          <TextInput
            label="To"
            type="date"
            value={range.to ?? ''}
            onChange={(e) =>
              setState({
                preset: 'custom',
                to: e.currentTarget.value || null,
                from: range.from ?? e.currentTarget.value,
              })
            }
            w={160}
          />
          <div>
            <Text size="sm" fw={500} mb={4} id="chart-type-label">
              Chart
            </Text>
            <SegmentedControl
              aria-labelledby="chart-type-label"
              data={CHART_TYPES.map((c) => ({ value: c, label: c === 'none' ? 'None' : c === 'bar' ? 'Bar' : 'Line' }))}
              value={state.chart}
              onChange={(v) => setState({ chart: v as ChartType })}
            />
          </div>
          <NumberInput
            label="Weeks per period"
            min={1}
            max={5}
            value={periods}
            onChange={(v) => setPeriods(Math.min(5, Math.max(1, Number(v) || 2)))}
            w={140}
          />
        </Group>
        {state.chart !== 'none' &&
          series.data &&
          (series.data.channelDataPointSeries.length ? (
            <TimeChart series={series.data.channelDataPointSeries} type={state.chart} />
          ) : (
            <Text c="dimmed">No data points in these dates.</Text>
          ))}
      </Paper>

      <DatasetsPanel
        channelId={channelId}
        canImport={canImport}
        version={imported}
        onSynced={() => {
          // A sync adds data points and an import run: the datasets' counts and the history follow.
          setImported((n) => n + 1);
          void load(null);
          void series.refetch();
        }}
      />
      <ThemesPanel channelId={channelId} />

      <Group align="flex-end" mb="sm">
        <TextInput
          label="Filter"
          placeholder="Words in the feedback"
          value={filterText}
          onChange={(e) => setFilterText(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && setState({ filter: filterText })}
          onBlur={() => filterText !== state.filter && setState({ filter: filterText })}
          w={320}
        />
        {points && (
          <Text c="dimmed" size="sm">
            {`${points.totalCountIsEstimate ? 'about ' : ''}${dataPoints(points.totalCount)}`}
          </Text>
        )}
        {canCreateInsight && selected.length > 0 && (
          <Group gap="xs" ml="auto">
            <Text size="sm">{selected.length} selected</Text>
            <Button variant="default" size="xs" onClick={() => setSelected([])}>
              Clear
            </Button>
            <Button size="xs" onClick={() => navigate(insightCreatePath(channelId, selected))}>
              Create insight
            </Button>
          </Group>
        )}
      </Group>
      {pointsError && <Alert color="red">{pointsError}</Alert>}
      {points && !points.nodes.length && (
        <Paper withBorder p="xl">
          <Text fw={600}>No data points yet</Text>
          <Text c="dimmed">Import a CSV file or push data points with the API.</Text>
        </Paper>
      )}
      <Stack gap="xs" component="ul" aria-label="Data points" style={{ listStyle: 'none', padding: 0 }}>
        {points?.nodes.map((p) => (
          <Paper component="li" key={p.id} withBorder p="sm">
            <Group wrap="nowrap" align="flex-start" gap="sm">
              {canCreateInsight && (
                <Checkbox
                  mt={3}
                  aria-label={`Select: ${p.content.slice(0, 60)}`}
                  checked={selected.includes(p.id)}
                  disabled={!selected.includes(p.id) && selected.length >= 100}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setSelected((s) => (on ? [...s, p.id] : s.filter((id) => id !== p.id)));
                  }}
                />
              )}
              <Anchor
                component={Link}
                to={`/channels/${channelId}/data/${p.id}`}
                c="inherit"
                underline="never"
                style={{ flex: 1 }}
              >
                <Text lineClamp={3}>{p.content}</Text>
              </Anchor>
            </Group>
            <Group gap="xs" mt={6}>
              <Text size="xs" c="dimmed">
                {when(p.createdAt)}
              </Text>
              {p.person && (
                <Text size="xs" c="dimmed">
                  · {p.person.name}
                </Text>
              )}
              <Badge size="xs" variant="light" color="gray">
                {p.source}
              </Badge>
              {p.sentiment && (
                <Badge size="xs" variant="light" color={SENTIMENT_COLOR[p.sentiment]}>
                  {p.sentiment}
                </Badge>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
      {points?.hasNextPage && (
        <Button variant="default" mt="md" onClick={() => void load(points.endCursor)}>
          Show more
        </Button>
      )}
      <ChannelDatasets channelId={channelId} refreshKey={imported} />
      {importing && (
        <ImportWizard
          channelId={channelId}
          onClose={() => {
            setImporting(false);
            setImported((n) => n + 1);
            void load(null);
            void series.refetch();
          }}
        />
      )}
    </Container>
  );
}
