import { Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import {
  CHANNEL_TYPE_LABELS,
  CHANNEL_TYPES_OF,
  MEASURE_LABELS,
  Q,
  type ChannelChartType,
  type ChannelMeasure,
  type ProjectChart,
} from './api.ts';

/** Picks a project's chart, or a channel's data points by theme (over time or in all), to add to a dashboard. */
export function AddChartModal({
  dashboardId,
  opened,
  onClose,
  onAdded,
}: {
  dashboardId: string;
  opened: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const host = useFieldbook();
  const [kind, setKind] = useState<'project' | 'channel'>('project');
  const [projectId, setProjectId] = useState<string | null>(null);
  const [chartId, setChartId] = useState<string | null>(null);
  const [channelId, setChannelId] = useState<string | null>(null);
  const [interval, setInterval] = useState<'DAY' | 'WEEK' | 'MONTH'>('WEEK');
  const [measure, setMeasure] = useState<ChannelMeasure>('OVER_TIME');
  const [chartType, setChartType] = useState<ChannelChartType>('BAR');
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const projects = useGraphQL<{ projects: Array<{ id: string; title: string }> }>(Q.projects);
  const charts = useGraphQL<{ projectCharts: ProjectChart[] }>(Q.projectCharts, {
    p: projectId ?? '00000000-0000-0000-0000-000000000000',
  });
  const channels = useGraphQL<{ channels: Array<{ id: string; name: string }> }>(Q.channels);

  async function add() {
    const input =
      kind === 'project'
        ? { projectChartId: chartId }
        : { channelId, interval, measure, chartType, title: title.trim() || null };
    if (kind === 'project' ? !chartId : !channelId)
      return setError(kind === 'project' ? 'Pick a chart.' : 'Pick a channel.');
    try {
      await host.graphql(Q.addChart, { d: dashboardId, input });
      setError(null);
      onAdded();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  const chartOptions = projectId
    ? (charts.data?.projectCharts ?? []).map((c) => ({ value: c.id, label: c.title }))
    : [];
  return (
    <Modal opened={opened} onClose={onClose} title="Add a chart">
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as 'project' | 'channel')}
          data={[
            { value: 'project', label: 'Project chart' },
            { value: 'channel', label: 'Channel' },
          ]}
          aria-label="What to chart"
        />
        {kind === 'project' ? (
          <>
            <Select
              label="Project"
              searchable
              data={(projects.data?.projects ?? []).map((p) => ({ value: p.id, label: p.title }))}
              value={projectId}
              onChange={(v) => {
                setProjectId(v);
                setChartId(null);
              }}
            />
            <Select
              label="Chart"
              data={chartOptions}
              value={chartId}
              onChange={setChartId}
              disabled={!projectId}
              nothingFoundMessage="This project has no charts yet"
            />
            {projectId && charts.data && !chartOptions.length && (
              <Text size="sm" c="dimmed">
                This project has no charts yet: make one on its Charts page.
              </Text>
            )}
          </>
        ) : (
          <>
            <Select
              label="Channel"
              searchable
              data={(channels.data?.channels ?? []).map((c) => ({ value: c.id, label: c.name }))}
              value={channelId}
              onChange={setChannelId}
            />
            <Select
              label="Shows"
              data={(Object.keys(MEASURE_LABELS) as ChannelMeasure[]).map((m) => ({
                value: m,
                label: MEASURE_LABELS[m],
              }))}
              value={measure}
              allowDeselect={false}
              onChange={(v) => {
                if (!v) return;
                const next = v as ChannelMeasure;
                setMeasure(next);
                if (!CHANNEL_TYPES_OF[next].includes(chartType)) setChartType(CHANNEL_TYPES_OF[next][0]!);
              }}
            />
            <Select
              label="Drawn as"
              data={CHANNEL_TYPES_OF[measure].map((t) => ({ value: t, label: CHANNEL_TYPE_LABELS[t] }))}
              value={chartType}
              allowDeselect={false}
              onChange={(v) => v && setChartType(v as ChannelChartType)}
            />
            {measure === 'OVER_TIME' && (
              <Select
                label="Data points per"
                data={[
                  { value: 'DAY', label: 'Day' },
                  { value: 'WEEK', label: 'Week' },
                  { value: 'MONTH', label: 'Month' },
                ]}
                value={interval}
                allowDeselect={false}
                onChange={(v) => v && setInterval(v as 'DAY' | 'WEEK' | 'MONTH')}
              />
            )}
            <TextInput
              label="Title"
              description="The channel’s name when left empty; up to 300 characters."
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
            />
          </>
        )}
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void add()}>Add to dashboard</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
