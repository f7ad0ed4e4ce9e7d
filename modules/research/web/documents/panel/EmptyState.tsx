import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a tab shows while it has nothing: what belongs here and how to add it. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4} py="lg" px="xs" align="center" ta="center">
      <Text fw={600} size="sm">
        {title}
      </Text>
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </Stack>
  );
}
