import { ActionIcon, Badge, Group, Menu, Paper, Text, Title } from '@mantine/core';
import { IconDots, IconShare } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { METRIC_LABELS, type ChartItem, type ProjectChart } from './api.ts';
import { ChartView } from './ChartView.tsx';
import { HighlightsDrawer } from './HighlightsDrawer.tsx';

/** A project chart in a card: its title, what it counts, the drawing, and its highlights on click. */
export function ChartCard({
  chart,
  subtitle,
  menu,
  onShare,
  headingLevel = 2,
}: {
  chart: ProjectChart;
  subtitle?: ReactNode;
  menu?: ReactNode;
  onShare?: () => void;
  headingLevel?: 2 | 3;
}) {
  const [selected, setSelected] = useState<ChartItem | null>(null);
  return (
    <Paper withBorder p="md" data-testid="chart-card">
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb="xs">
        <div style={{ minWidth: 0 }}>
          <Title order={headingLevel} size="h4" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {chart.title}
          </Title>
          <Group gap="xs" mt={4}>
            <Badge variant="light" size="sm">
              {METRIC_LABELS[chart.metric]}
            </Badge>
            {subtitle}
          </Group>
        </div>
        <Group gap={4} wrap="nowrap">
          {onShare && (
            <ActionIcon variant="subtle" onClick={onShare} aria-label={`Share chart ${chart.title.slice(0, 60)}`}>
              <IconShare size={18} aria-hidden />
            </ActionIcon>
          )}
          {menu && (
            <Menu position="bottom-end">
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={`Actions for chart ${chart.title.slice(0, 60)}`}>
                  <IconDots size={18} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>{menu}</Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <ChartView
        title={chart.title}
        type={chart.type}
        metric={chart.metric}
        items={chart.items}
        onSelect={setSelected}
      />
      <Text size="xs" c="dimmed" mt="xs">
        Click a {chart.type === 'TREEMAP' ? 'cell' : chart.type === 'PIE' ? 'slice' : 'bar'} to read its highlights.
      </Text>
      <HighlightsDrawer chartId={chart.id} item={selected} onClose={() => setSelected(null)} />
    </Paper>
  );
}
