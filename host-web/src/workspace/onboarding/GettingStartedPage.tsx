import { Anchor, Button, Paper, Stack, Text, ThemeIcon, Title, Group } from '@mantine/core';
import { IconFolderPlus, IconSettings, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { AuthLayout } from '../../layout/AuthLayout.tsx';
import { useWorkspace } from '../../session/WorkspaceProvider.tsx';

const STEPS = [
  {
    to: '/onboarding/setup-workspace',
    icon: IconUsers,
    title: 'Set up your workspace',
    text: 'Your name, and the teammates you research with.',
  },
  {
    to: '/onboarding/project-setup',
    icon: IconFolderPlus,
    title: 'Start your first project',
    text: 'A project with a first note, with sample content if you like.',
  },
  {
    to: '/settings/user/account',
    icon: IconSettings,
    title: 'Make it yours',
    text: 'Pick a light or dark theme, and how you are notified.',
  },
] as const;

/** /onboarding/getting-started: where a new workspace begins, one step at a time. */
export function GettingStartedPage() {
  const { workspace } = useWorkspace();
  return (
    <AuthLayout
      title={`Welcome to ${workspace.name}`}
      subtitle="Three steps from an empty workspace to your first research."
      width={560}
      footer={
        <Anchor component={Link} to="/home" fw={600}>
          Skip and go to home
        </Anchor>
      }
    >
      <Stack gap="sm">
        {STEPS.map((s, i) => (
          <Paper key={s.to} withBorder p="md">
            <Group wrap="nowrap" align="flex-start">
              <ThemeIcon variant="light" size="lg" aria-hidden>
                <s.icon size={18} />
              </ThemeIcon>
              <div style={{ flex: 1 }}>
                <Title order={2} fz="md">
                  {i + 1}. {s.title}
                </Title>
                <Text size="sm" c="dimmed">
                  {s.text}
                </Text>
              </div>
              <Button
                component={Link}
                to={s.to}
                variant={i === 0 ? 'filled' : 'default'}
                size="xs"
                aria-label={`${i === 0 ? 'Start' : 'Open'}: ${s.title}`}
              >
                {i === 0 ? 'Start' : 'Open'}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
    </AuthLayout>
  );
}
