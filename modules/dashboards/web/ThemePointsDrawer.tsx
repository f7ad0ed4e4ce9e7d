import { Alert, Anchor, Drawer, Loader, Paper, Stack, Text } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { Link } from 'react-router';
import { Q } from './api.ts';

interface Point {
  id: string;
  channelId: string;
  content: string;
  createdAt: string;
}

/** The data points behind one theme of a channel chart (newest first), each opening its page. */
export function ThemePointsDrawer({
  channelId,
  theme,
  onClose,
}: {
  channelId: string;
  theme: { id: string; title: string } | null;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={theme !== null}
      onClose={onClose}
      position="right"
      size="md"
      closeButtonProps={{ 'aria-label': 'Close data points' }}
      title={theme ? `Data points: ${theme.title}` : ''}
    >
      {theme && <PointList channelId={channelId} themeId={theme.id} />}
    </Drawer>
  );
}

function PointList({ channelId, themeId }: { channelId: string; themeId: string }) {
  const res = useGraphQL<{ channelThemeDataPoints: { totalCount: number; nodes: Point[] } }>(Q.themePoints, {
    t: themeId,
  });
  if (res.error)
    return (
      <Alert color="red" title="The data points could not be loaded">
        {res.error.message}
      </Alert>
    );
  if (!res.data) return <Loader size="sm" aria-label="Loading data points" />;
  const { nodes, totalCount } = res.data.channelThemeDataPoints;
  if (!nodes.length) return <Text c="dimmed">No data points.</Text>;
  return (
    <Stack gap="sm" aria-label="Data points of this theme">
      <Text size="sm" c="dimmed">
        {totalCount > nodes.length
          ? `The newest ${nodes.length} of ${totalCount} data points.`
          : `${totalCount} data point${totalCount === 1 ? '' : 's'}.`}{' '}
        <Anchor component={Link} to={`/channels/${channelId}/themes/${themeId}`} size="sm" underline="always">
          Open the theme
        </Anchor>
      </Text>
      {nodes.map((p) => (
        <Paper key={p.id} withBorder p="sm" data-testid="theme-data-point">
          <Text size="sm" lineClamp={4}>
            {p.content}
          </Text>
          <Anchor component={Link} to={`/channels/${p.channelId}/data/${p.id}`} size="xs">
            {new Date(p.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
          </Anchor>
        </Paper>
      ))}
    </Stack>
  );
}
