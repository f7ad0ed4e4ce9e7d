import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { LAYOUT } from '../app/theme.ts';
import { usePageTitle } from '../common/usePageTitle.ts';

/** A workspace page: its heading, a line about it, actions on the right, then the content. */
export function Page({
  title,
  description,
  actions,
  width = 'content',
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** content 864, wide 1084, max 1200 (000 §9). */
  width?: 'content' | 'wide' | 'max';
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Box maw={LAYOUT[width]} mx="auto" w="100%">
      <Group justify="space-between" align="flex-end" mb="lg" gap="md">
        <Stack gap={4}>
          <Title order={1} fz={26} lh={1.2}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
      {children}
    </Box>
  );
}
