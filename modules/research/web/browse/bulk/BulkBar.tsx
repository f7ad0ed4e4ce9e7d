import { Button, Checkbox, Group, Paper, Progress, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The bar over a list once items are ticked: how many, the actions for all of them, and while an
 * action runs, how far it got.
 */
export function BulkBar({
  selected,
  total,
  onAll,
  onClear,
  progress,
  children,
  what,
}: {
  selected: number;
  total: number;
  onAll(): void;
  onClear(): void;
  progress: { finished: number; total: number } | null;
  children: ReactNode;
  what: string;
}) {
  return (
    <Paper
      withBorder
      px="md"
      py="xs"
      mb="sm"
      bg={selected ? 'indigo.0' : undefined}
      role="region"
      aria-label={`Select ${what}`}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm">
          <Checkbox
            aria-label={selected === total && total > 0 ? `Clear the selection` : `Select all ${what} shown`}
            checked={selected > 0 && selected === total}
            indeterminate={selected > 0 && selected < total}
            onChange={() => (selected === total ? onClear() : onAll())}
          />
          <Text size="sm" fw={selected ? 600 : 400} c={selected ? undefined : 'dimmed'} aria-live="polite">
            {selected ? `${selected} selected` : `Select ${what} to act on several at once`}
          </Text>
        </Group>
        {selected > 0 && (
          <Group gap="xs">
            {children}
            <Button size="compact-sm" variant="subtle" onClick={onClear}>
              Clear
            </Button>
          </Group>
        )}
      </Group>
      {progress && (
        <Progress
          mt="xs"
          size="sm"
          value={(progress.finished / progress.total) * 100}
          aria-label={`Done ${progress.finished} of ${progress.total}`}
        />
      )}
    </Paper>
  );
}
