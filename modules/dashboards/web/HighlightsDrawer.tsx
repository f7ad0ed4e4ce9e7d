import { Alert, Anchor, Drawer, Loader, Paper, Stack, Text } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { Link } from 'react-router';
import { Q, type ChartHighlight, type ChartItem } from './api.ts';

/** The highlights behind one bar, slice or cell of a chart, each linking to its note. */
export function HighlightsDrawer({
  chartId,
  item,
  onClose,
}: {
  chartId: string;
  item: ChartItem | null;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={item !== null}
      onClose={onClose}
      position="right"
      size="md"
      closeButtonProps={{ 'aria-label': 'Close highlights' }}
      title={item ? `Highlights: ${item.title}` : ''}
    >
      {item && <HighlightList chartId={chartId} itemId={item.id} />}
    </Drawer>
  );
}

function HighlightList({ chartId, itemId }: { chartId: string; itemId: string }) {
  const res = useGraphQL<{ projectChartHighlights: ChartHighlight[] }>(Q.chartHighlights, {
    id: chartId,
    item: itemId,
  });
  if (res.error)
    return (
      <Alert color="red" title="The highlights could not be loaded">
        {res.error.message}
      </Alert>
    );
  if (!res.data) return <Loader size="sm" aria-label="Loading highlights" />;
  const list = res.data.projectChartHighlights;
  if (!list.length) return <Text c="dimmed">No highlights.</Text>;
  return (
    <Stack gap="sm" aria-label="Highlights behind this item">
      {list.map((h) => (
        <Paper key={h.id} withBorder p="sm" data-testid="chart-highlight">
          <Text size="sm">“{h.text}”</Text>
          {h.noteId && (
            <Anchor component={Link} to={`/data/${h.noteId}`} size="xs">
              {h.noteTitle || 'Untitled note'}
            </Anchor>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
