import { Alert, Box, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The frame of a workspace list page (/agents, /automation): title and what the page is for, its
 * main action, an error, loading, and what to do when the list is empty; the list itself is the
 * children. Kept here because automation's web part already builds on agents'.
 */
export function ListPage({
  title,
  intro,
  action,
  error,
  loading,
  loadingLabel,
  empty,
  children,
}: {
  title: string;
  intro: string;
  action: ReactNode;
  error: string | null;
  /** True until the list first arrives. */
  loading: boolean;
  loadingLabel: string;
  /** Shown instead of the list when it is empty (null while it has items). */
  empty: { icon: ReactNode; title: string; text: string } | null;
  children?: ReactNode;
}) {
  return (
    <Box maw={1084} mx="auto" w="100%">
      <Group justify="space-between" align="flex-end" mb="lg">
        <Stack gap={4}>
          <Title order={1} fz={26}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        </Stack>
        {action}
      </Group>
      {error && (
        <Alert color="red" role="alert" mb="md">
          {error}
        </Alert>
      )}
      {loading && !error && <Loader aria-label={loadingLabel} />}
      {empty && (
        <Paper withBorder p="xl" ta="center" radius="md">
          {empty.icon}
          <Text fw={600} mt="xs">
            {empty.title}
          </Text>
          <Text size="sm" c="dimmed">
            {empty.text}
          </Text>
        </Paper>
      )}
      {children}
    </Box>
  );
}
