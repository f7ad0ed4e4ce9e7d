import { Box, Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLinkOff, IconWifiOff } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import type { SharedObjectError } from './shared-object.ts';

/** The frame of every public page (shared objects, charts, dashboards), without the editor. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Fieldbook` : 'Fieldbook';
  }, [title]);
}

function Mark() {
  return (
    <Group gap={8} wrap="nowrap">
      <svg width={24} height={24} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="#3b5bdb" />
        <path d="M10 8h12v3.2h-8.4v3.6h7.2V18h-7.2v6H10z" fill="#fff" />
      </svg>
      <Text fw={700} fz={16} c="dark.8">
        Fieldbook
      </Text>
    </Group>
  );
}

/** The frame of a public page: the brand, the shared thing, and a note on where it comes from. */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" bg="#f7f8fb" style={{ display: 'flex', flexDirection: 'column' }}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Box component="header" px="lg" py="md" bg="white" style={{ borderBottom: '1px solid #e9ecef' }}>
        <Group justify="space-between">
          <Mark />
          <Text size="xs" c="dimmed">
            Shared with a public link
          </Text>
        </Group>
      </Box>
      <Box component="main" id="main" style={{ flex: 1 }} py="xl" px="md">
        {children}
      </Box>
      <Box component="footer" py="md" ta="center">
        <Text size="xs" c="dimmed">
          Made with Fieldbook · open-source customer research
        </Text>
      </Box>
    </Box>
  );
}

export function DeadLink({ error, onRetry }: { error: SharedObjectError; onRetry: () => void }) {
  usePageTitle(error.gone ? 'Link not available' : 'Could not load');
  return (
    <Center pt={48}>
      <Paper withBorder shadow="xs" p="xl" maw={520} w="100%">
        <Stack gap="md" align="flex-start">
          <ThemeIcon size={48} radius="xl" variant="light" color="indigo" aria-hidden>
            {error.gone ? <IconLinkOff size={24} /> : <IconWifiOff size={24} />}
          </ThemeIcon>
          <Title order={1} fz={26}>
            {error.gone ? 'This link isn’t available' : 'This page could not be loaded'}
          </Title>
          <Text size="sm">{error.message}</Text>
          {!error.gone && <Button onClick={onRetry}>Try again</Button>}
        </Stack>
      </Paper>
    </Center>
  );
}
