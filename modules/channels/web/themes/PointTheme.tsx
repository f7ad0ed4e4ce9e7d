import { Anchor, Button, Group, Select, Text, Title } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { Link } from 'react-router';
import { TQ } from './api.ts';

const OUTLIERS = 'outliers';

/** The theme section of a data point's page: where it is placed, and moving it elsewhere. */
export function PointTheme({ channelId, dataPointId }: { channelId: string; dataPointId: string }) {
  const host = useFieldbook();
  const canEdit = host.permissions.includes('projects:update');
  const state = useGraphQL<{
    channelDataPoint: { isOutlier: boolean; theme: { id: string; title: string } | null };
    channelThemes: Array<{ id: string; title: string }>;
  }>(TQ.pointTheme, { id: dataPointId, channelId });
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const p = state.data?.channelDataPoint;
  async function move() {
    try {
      await host.graphql(TQ.move, { dataPointId, themeId: target === OUTLIERS ? null : target });
      setTarget(null);
      await state.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  if (!p) return null;
  return (
    <section aria-labelledby="theme-heading">
      <Title order={2} size="h4" id="theme-heading" mb="xs">
        Theme
      </Title>
      {p.theme ? (
        <Anchor component={Link} to={`/channels/${channelId}/themes/${p.theme.id}`}>
          {p.theme.title}
        </Anchor>
      ) : (
        <Text c="dimmed">{p.isOutlier ? 'An outlier: it fits no theme.' : 'Not placed in a theme yet.'}</Text>
      )}
      {canEdit && state.data!.channelThemes.length > 0 && (
        <Group align="flex-end" mt="xs">
          <Select
            label="Move to"
            placeholder="Choose a theme"
            data={[
              ...state
                .data!.channelThemes.filter((t) => t.id !== p.theme?.id)
                .map((t) => ({ value: t.id, label: t.title })),
              ...(p.isOutlier ? [] : [{ value: OUTLIERS, label: 'Outliers' }]),
            ]}
            value={target}
            onChange={setTarget}
            w={360}
          />
          <Button variant="default" disabled={!target} onClick={() => void move()}>
            Move
          </Button>
        </Group>
      )}
      {error && <Text c="red">{error}</Text>}
    </section>
  );
}
