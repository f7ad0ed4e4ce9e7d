import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  NumberInput,
  Paper,
  Select,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { TimeChart, type SeriesPoint } from '../charts.tsx';
import { TQ, type Theme, type ThemeSummary } from './api.ts';
import { PointList } from './PointList.tsx';
import { dataPoints } from '../count.ts';

const VIEWERS_CANNOT_SUMMARIZE = 'Viewers cannot generate summaries';

/** /channels/{channelId}/themes/{themeId}: a theme's summary, its points over time and its data points. */
export function ThemePage() {
  const { channelId = '', themeId = '' } = useParams();
  const host = useFieldbook();
  const navigate = useNavigate();
  const canEdit = host.permissions.includes('projects:update');
  const theme = useGraphQL<{ channelTheme: Theme }>(TQ.theme, { id: themeId });
  const others = useGraphQL<{ channelThemes: Theme[] }>(TQ.themes, { channelId });
  const [periods, setPeriods] = useState(2);
  const series = useGraphQL<{ channelThemeSeries: SeriesPoint[] }>(TQ.series, {
    themeId,
    interval: 'WEEK',
    aggregationPeriods: periods,
  });
  const [title, setTitle] = useState<string | null>(null);
  const [mergeId, setMergeId] = useState<string | null>(null);
  const [summary, setSummary] = useState<ThemeSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const t = theme.data?.channelTheme;

  async function act(fn: () => Promise<void>) {
    setError(null);
    setWorking(true);
    try {
      await fn();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setWorking(false);
    }
  }

  if (theme.error) {
    return (
      <Container size={864} py="xl">
        <Title order={1}>This theme could not be found</Title>
        <Anchor component={Link} to={`/channels/${channelId}`}>
          Back to the channel
        </Anchor>
      </Container>
    );
  }
  const shown = summary ?? t?.summary ?? null;
  return (
    <Container size={1084} py="lg">
      <Anchor component={Link} to={`/channels/${channelId}`} size="sm">
        Back to the channel
      </Anchor>
      {t && (
        <>
          <Group justify="space-between" mt={4} mb="xs" align="flex-end">
            {title === null ? (
              <Title order={1}>{t.title}</Title>
            ) : (
              <Group align="flex-end">
                <TextInput
                  label="Theme title"
                  value={title}
                  onChange={(e) => setTitle(e.currentTarget.value)}
                  w={420}
                  maxLength={300}
                />
                <Button
                  loading={working}
                  onClick={() =>
                    void act(async () => {
                      await host.graphql(TQ.rename, { id: themeId, title });
                      setTitle(null);
                      await theme.refetch();
                    })
                  }
                >
                  Save
                </Button>
                <Button variant="default" onClick={() => setTitle(null)}>
                  Cancel
                </Button>
              </Group>
            )}
            {canEdit && !t.retired && title === null && (
              <Group gap="xs">
                <Button variant="default" onClick={() => setTitle(t.title)}>
                  Rename
                </Button>
                <Button
                  variant="default"
                  loading={working}
                  onClick={() =>
                    void act(async () => {
                      await host.graphql(TQ.split, { id: themeId });
                      await theme.refetch();
                      await others.refetch();
                    })
                  }
                >
                  Split in two
                </Button>
              </Group>
            )}
          </Group>
          <Text size="sm" c="dimmed" mb="md">
            {dataPoints(t.datumCount)}
            {t.phrases.length ? ` · ${t.phrases.join(', ')}` : ''}
            {t.topic && (
              <>
                {' · '}
                <Anchor component={Link} to={`/t/${t.topic.id}`} size="sm" underline="always">
                  {t.topic.title}
                </Anchor>
              </>
            )}
          </Text>
          {t.retired && (
            <Alert color="yellow" mb="md">
              {t.mergedInto ? (
                <>
                  This theme was merged into{' '}
                  <Anchor component={Link} to={`/channels/${channelId}/themes/${t.mergedInto}`} underline="always">
                    another theme
                  </Anchor>
                  .
                </>
              ) : (
                'A later clustering no longer found this theme.'
              )}
            </Alert>
          )}
        </>
      )}
      {error && (
        <Alert color="red" mb="md">
          {error}
        </Alert>
      )}

      <Paper withBorder p="md" mb="md" component="section" aria-labelledby="summary-heading">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="summary-heading">
            Summary
          </Title>
          {/* Viewers read summaries but cannot generate them (002 §6): the button says why it is off. */}
          <Tooltip label={VIEWERS_CANNOT_SUMMARIZE} disabled={canEdit}>
            <span tabIndex={canEdit ? -1 : 0} aria-label={canEdit ? undefined : VIEWERS_CANNOT_SUMMARIZE}>
              <Button
                variant="default"
                size="xs"
                loading={working}
                disabled={!canEdit}
                onClick={() =>
                  void act(async () => {
                    const res = await host.graphql<{ summarizeChannelTheme: ThemeSummary }>(TQ.summarize, {
                      id: themeId,
                    });
                    setSummary(res.summarizeChannelTheme);
                  })
                }
              >
                {shown ? 'Summarize again' : 'Summarize'}
              </Button>
            </span>
          </Tooltip>
        </Group>
        {shown ? (
          <>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{shown.summary}</Text>
            <Text size="xs" c="dimmed" mt="xs" data-testid="theme-summary-provenance">
              {shown.provenance
                ? `${shown.provenance.label}${shown.provenance.inputCount < shown.datumCount ? ` (the most central of ${dataPoints(shown.datumCount)})` : ''}`
                : `${shown.label} · from ${dataPoints(shown.datumCount)}`}
              {shown.provenance?.endpointHost ? ` · ${shown.provenance.endpointHost}` : ''}
              {shown.droppedQuotes
                ? ` · ${shown.droppedQuotes} quote${shown.droppedQuotes === 1 ? '' : 's'} not found in the data points removed`
                : ''}
            </Text>
          </>
        ) : (
          <Text c="dimmed">No summary yet.</Text>
        )}
      </Paper>

      <Paper withBorder p="md" mb="md" component="section" aria-labelledby="time-heading">
        <Group justify="space-between" align="flex-end" mb="xs">
          <Title order={2} size="h4" id="time-heading">
            Over time
          </Title>
          <NumberInput
            label="Weeks per period"
            min={1}
            max={5}
            value={periods}
            onChange={(v) => setPeriods(Math.min(5, Math.max(1, Number(v) || 2)))}
            w={140}
          />
        </Group>
        {series.data &&
          (series.data.channelThemeSeries.length ? (
            <TimeChart series={series.data.channelThemeSeries} type="bar" />
          ) : (
            <Text c="dimmed">No data points yet.</Text>
          ))}
      </Paper>

      {canEdit && t && !t.retired && (
        <Group align="flex-end" mb="md">
          <Select
            label="Merge another theme into this one"
            placeholder="Choose a theme"
            data={(others.data?.channelThemes ?? [])
              .filter((o) => o.id !== themeId)
              .map((o) => ({ value: o.id, label: `${o.title} (${o.datumCount})` }))}
            value={mergeId}
            onChange={setMergeId}
            w={420}
          />
          <Button
            variant="default"
            disabled={!mergeId}
            loading={working}
            onClick={() =>
              void act(async () => {
                await host.graphql(TQ.merge, { targetId: themeId, sourceIds: [mergeId] });
                setMergeId(null);
                await theme.refetch();
                await others.refetch();
                navigate(`/channels/${channelId}/themes/${themeId}`, { replace: true });
              })
            }
          >
            Merge
          </Button>
        </Group>
      )}

      <Title order={2} size="h4" mb="xs">
        Data points
      </Title>
      <PointList
        key={`${t?.datumCount}`}
        query={TQ.themePoints}
        variables={{ themeId }}
        field="channelThemeDataPoints"
        linkBase={`/channels/${channelId}/themes/${themeId}/data`}
        label="Data points of this theme"
      />
    </Container>
  );
}
