import { Box, Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from './Logo.tsx';
import { usePageTitle } from './usePageTitle.ts';

export interface MessageAction {
  label: string;
  to?: string;
  onClick?: () => void;
  primary?: boolean;
}

/** A page that says one thing clearly (not found, no access, can't connect) and what to do next. */
export function MessageCard({
  icon,
  title,
  children,
  actions = [],
  code,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions?: MessageAction[];
  code?: string;
}) {
  usePageTitle(title);
  return (
    <Paper withBorder shadow="xs" p="xl" maw={520} w="100%">
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={48} radius="xl" variant="light" color="indigo" aria-hidden>
          {icon}
        </ThemeIcon>
        {code && (
          <Text size="sm" fw={600} c="dimmed">
            {code}
          </Text>
        )}
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Box c="dark.6" fz="sm">
          {children}
        </Box>
        {actions.length > 0 && (
          <Group gap="sm" mt="xs">
            {actions.map((a) =>
              a.to ? (
                <Button key={a.label} component={Link} to={a.to} variant={a.primary ? 'filled' : 'default'}>
                  {a.label}
                </Button>
              ) : (
                <Button key={a.label} onClick={a.onClick} variant={a.primary ? 'filled' : 'default'}>
                  {a.label}
                </Button>
              ),
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** The same card alone on a page, for screens outside the workspace layout. */
export function MessagePage(props: Parameters<typeof MessageCard>[0]) {
  return (
    <Box mih="100vh" p="md">
      <Box component="header" py="md" px="sm">
        <Link to="/" aria-label="Fieldbook home" style={{ textDecoration: 'none', display: 'inline-block' }}>
          <Logo />
        </Link>
      </Box>
      <Center component="main" mih="70vh">
        <MessageCard {...props} />
      </Center>
    </Box>
  );
}
