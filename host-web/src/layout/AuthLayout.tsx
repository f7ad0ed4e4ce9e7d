import { Anchor, Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../common/Logo.tsx';
import { usePageTitle } from '../common/usePageTitle.ts';

/** The frame of sign-in, sign-up and workspace-choice screens: one card, centred, with the brand. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
  width = 440,
  brand,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
  /** A workspace's name shown above the card when the screen belongs to one. */
  brand?: string | null;
}) {
  usePageTitle(title);
  return (
    <Box
      mih="100vh"
      style={{
        background: 'radial-gradient(1200px 600px at 50% -10%, var(--fb-page-glow) 0%, var(--fb-page-bg) 60%)',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Box component="header" px="lg" py="md">
        <Group justify="space-between">
          <Anchor component={Link} to="/" aria-label="Fieldbook home" underline="never">
            <Logo />
          </Anchor>
        </Group>
      </Box>
      <Center component="main" id="main" style={{ flex: 1 }} px="md" pb="xl">
        <Stack w="100%" maw={width} gap="lg">
          <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 32 }}>
            <Stack gap={6} mb="lg">
              {brand && (
                <Text size="sm" fw={600} c="indigo.8">
                  {brand}
                </Text>
              )}
              <Title order={1} fz={24} lh={1.25}>
                {title}
              </Title>
              {subtitle && (
                <Text size="sm" c="dimmed">
                  {subtitle}
                </Text>
              )}
            </Stack>
            {children}
          </Paper>
          {footer && (
            <Text size="sm" ta="center" c="dimmed" component="div">
              {footer}
            </Text>
          )}
        </Stack>
      </Center>
      <Box component="footer" py="md" ta="center">
        <Text size="xs" c="dimmed">
          Fieldbook · open-source customer research
        </Text>
      </Box>
    </Box>
  );
}
