import { Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import {
  GROUP_LABELS,
  METRIC_LABELS,
  Q,
  TYPE_LABELS,
  type ChartGroupBy,
  type ChartMetric,
  type ChartType,
  type ProjectChart,
} from './api.ts';

export interface ChartDraft {
  title: string;
  metric: ChartMetric;
  groupBy: ChartGroupBy;
  type: ChartType;
  filter: { collapsedGroupIds: string[]; hiddenItemIds: string[] };
}

const options = <K extends string>(labels: Record<K, string>) =>
  (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));

interface Board {
  id: string;
  title: string;
  groups: Array<{ id: string; title: string }>;
  tags: Array<{ id: string; title: string }>;
}

/** Creates a chart or changes one: its title, options, collapsed groups and hidden items. */
export function ChartEditor({
  projectId,
  chart,
  opened,
  onClose,
  onSave,
}: {
  projectId: string;
  chart: ProjectChart | null;
  opened: boolean;
  onClose: () => void;
  onSave: (draft: ChartDraft) => Promise<void>;
}) {
  const boards = useGraphQL<{ tagBoards: Board[] }>(Q.tagBoards, { p: projectId });
  const [draft, setDraft] = useState<ChartDraft>(() =>
    chart
      ? { title: chart.title, metric: chart.metric, groupBy: chart.groupBy, type: chart.type, filter: chart.filter }
      : {
          title: '',
          metric: 'HIGHLIGHT_COUNT',
          groupBy: 'TAG',
          type: 'BAR',
          filter: { collapsedGroupIds: [], hiddenItemIds: [] },
        },
  );
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const groups = (boards.data?.tagBoards ?? []).flatMap((b) =>
    b.groups.map((g) => ({ value: g.id, label: `${g.title} (${b.title})` })),
  );
  const tags = (boards.data?.tagBoards ?? []).flatMap((b) =>
    b.tags.map((t) => ({ value: t.id, label: `${t.title} (${b.title})` })),
  );
  const hideable =
    draft.groupBy === 'TAG' ? [...tags, ...groups.map((g) => ({ ...g, label: `Group ${g.label}` }))] : groups;

  async function save() {
    if (!draft.title.trim()) return setError('Give the chart a title.');
    if (draft.title.trim().length > 300) return setError('A chart title can be at most 300 characters long.');
    setSaving(true);
    try {
      await onSave(draft);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={chart ? 'Edit chart' : 'New chart'}>
      <Stack>
        <TextInput
          label="Title"
          required
          value={draft.title}
          maxLength={300}
          error={error}
          onChange={(e) => {
            setDraft({ ...draft, title: e.currentTarget.value });
            setError(null);
          }}
        />
        <Select
          label="Metric"
          data={options(METRIC_LABELS)}
          value={draft.metric}
          allowDeselect={false}
          onChange={(v) => v && setDraft({ ...draft, metric: v as ChartMetric })}
        />
        <Select
          label="Group by"
          data={options(GROUP_LABELS)}
          value={draft.groupBy}
          allowDeselect={false}
          onChange={(v) => v && setDraft({ ...draft, groupBy: v as ChartGroupBy })}
        />
        <Select
          label="Chart type"
          data={options(TYPE_LABELS)}
          value={draft.type}
          allowDeselect={false}
          onChange={(v) => v && setDraft({ ...draft, type: v as ChartType })}
        />
        {draft.groupBy === 'TAG' && (
          <MultiSelect
            label="Collapsed groups"
            description="Each group's tags show as one item."
            data={groups}
            value={draft.filter.collapsedGroupIds}
            searchable
            onChange={(v) => setDraft({ ...draft, filter: { ...draft.filter, collapsedGroupIds: v } })}
          />
        )}
        <MultiSelect
          label="Hidden items"
          data={hideable}
          value={draft.filter.hiddenItemIds.filter((id) => hideable.some((h) => h.value === id))}
          searchable
          onChange={(v) => setDraft({ ...draft, filter: { ...draft.filter, hiddenItemIds: v } })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={saving} onClick={() => void save()}>
            {chart ? 'Save chart' : 'Create chart'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
