import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCircleCheck, IconCircleDashed, IconUsersPlus } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { REGIONS } from '../auth/regions.ts';
import { ExtensionSlot } from '../extensions/ExtensionsProvider.tsx';
import { Page } from '../layout/Page.tsx';
import { DiscoverInsights } from './DiscoverInsights.tsx';
import { roleLabel } from '../settings/roles.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';

// Ask loads after the home page itself, so the home stays as light as it was.
const AskBox = lazy(() => import('@fieldbook/ai/web/ask').then((m) => ({ default: m.AskBox })));

function greeting(): string {
  const h = new Date().getHours();
  return h < 12 ? 'Good morning' : h < 18 ? 'Good afternoon' : 'Good evening';
}

export function HomePage() {
  const { user } = useSession();
  const { workspace, membership, can } = useWorkspace();
  const firstName = (user?.name || '').split(' ')[0] || 'there';
  const steps = [
    { label: 'Create your workspace', done: true, to: null },
    { label: 'Add your name to your profile', done: Boolean(user?.name), to: '/settings/user/account' },
    {
      label: 'Invite your teammates',
      done: workspace.memberCount > 1,
      to: can('invites:send') ? '/settings/users' : null,
    },
  ];
  const region = REGIONS.find((r) => r.value === workspace.region);

  return (
    <Page title={`${greeting()}, ${firstName}`} description={`Welcome to ${workspace.name}.`} width="wide">
      {can('projects:read') && (
        <Suspense fallback={null}>
          <Stack mb="lg">
            <AskBox />
          </Stack>
        </Suspense>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <Card withBorder padding="lg" style={{ gridColumn: 'span 2' }}>
          <Group justify="space-between" mb="sm">
            <Title order={2} fz="lg">
              Getting started
            </Title>
            <Badge variant="light" color="indigo">
              {steps.filter((s) => s.done).length} of {steps.length} done
            </Badge>
          </Group>
          <List spacing="sm" center>
            {steps.map((s) => (
              <List.Item
                key={s.label}
                icon={
                  <ThemeIcon
                    size={22}
                    radius="xl"
                    variant={s.done ? 'filled' : 'light'}
                    color={s.done ? 'teal.8' : 'gray.6'}
                    aria-hidden
                  >
                    {s.done ? <IconCircleCheck size={14} /> : <IconCircleDashed size={14} />}
                  </ThemeIcon>
                }
              >
                {s.to && !s.done ? (
                  <Anchor component={Link} to={s.to} size="sm">
                    {s.label}
                  </Anchor>
                ) : (
                  <Text size="sm" td={s.done ? 'line-through' : undefined} c={s.done ? 'dimmed' : undefined}>
                    {s.label}
                    {s.done && <VisuallyHidden> (done)</VisuallyHidden>}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
          <Button component={Link} to="/onboarding/getting-started" variant="light" mt="lg" w="fit-content">
            Open the setup guide
          </Button>
        </Card>
        <Card withBorder padding="lg">
          <Title order={2} fz="lg" mb="sm">
            Your workspace
          </Title>
          <Stack gap={6}>
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                Members:{' '}
              </Text>
              {workspace.memberCount}
            </Text>
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                Your role:{' '}
              </Text>
              {roleLabel(membership.effectiveRole)}
            </Text>
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                Data region:{' '}
              </Text>
              {region ? `${region.group}, ${region.label}` : workspace.region}
            </Text>
          </Stack>
          {can('invites:send') && (
            <Button
              component={Link}
              to="/settings/users"
              leftSection={<IconUsersPlus size={16} aria-hidden />}
              mt="lg"
              variant="default"
            >
              Invite people
            </Button>
          )}
        </Card>
      </SimpleGrid>

      <Title order={2} fz="lg" mt={40} mb="sm">
        Discover new insights
      </Title>
      {can('insights:read') ? (
        <DiscoverInsights />
      ) : (
        <Text size="sm" c="dimmed">
          Your role does not include reading insights.
        </Text>
      )}

      <Stack mt="xl" gap="lg">
        <ExtensionSlot
          name="home.card/v1"
          props={{ workspace: { id: workspace.id, name: workspace.name, subdomain: workspace.subdomain } }}
        />
      </Stack>
    </Page>
  );
}
