import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '../api/hooks.ts';
import { ops, type AvailableTeam } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { useServices, useSession } from '../session/SessionProvider.tsx';
import { TeamAvatar } from './TeamAvatar.tsx';

/** One row per workspace, with what the person can do about it. */
export function TeamList({ teams, onChanged }: { teams: AvailableTeam[]; onChanged?: () => void }) {
  const { client } = useServices();
  const navigate = useNavigate();
  const [joining, setJoining] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function join(team: AvailableTeam) {
    setJoining(team.id);
    setError(null);
    try {
      await client.request(ops.joinWorkspaceByDomain, { workspaceId: team.id }, { workspace: false });
      onChanged?.();
      navigate(`/team-redirect/${team.id}/home`);
    } catch (err) {
      setError(err);
    } finally {
      setJoining(null);
    }
  }

  return (
    <Stack gap="xs">
      <ErrorAlert error={error} />
      {teams.map((team) =>
        team.type === 'MEMBER' ? (
          <UnstyledButton
            key={team.id}
            component={Link}
            to={`/team-redirect/${team.id}/home`}
            style={{ borderRadius: 12 }}
          >
            <Paper withBorder p="sm" radius="md" className="team-row">
              <Group wrap="nowrap">
                <TeamAvatar team={team} />
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={600} truncate>
                    <VisuallyHidden>Open </VisuallyHidden>
                    {team.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {team.subdomain}
                  </Text>
                </div>
                <IconChevronRight size={18} aria-hidden color="#5c6370" />
              </Group>
            </Paper>
          </UnstyledButton>
        ) : (
          <Paper key={team.id} withBorder p="sm" radius="md">
            <Group wrap="nowrap">
              <TeamAvatar team={team} />
              <div style={{ flex: 1, minWidth: 0 }}>
                <Group gap={6}>
                  <Text fw={600} truncate>
                    {team.name}
                  </Text>
                  <Badge size="xs" variant="light" color={team.type === 'INVITE' ? 'grape' : 'teal'}>
                    {team.type === 'INVITE' ? 'Invited' : 'Your domain'}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed">
                  {team.type === 'INVITE'
                    ? `${team.invitedBy ?? 'Someone'} invited you. Open the link in the invitation email to join.`
                    : 'Anyone with your email domain can join.'}
                </Text>
              </div>
              {team.type === 'DOMAIN' && (
                <Button
                  size="xs"
                  variant="light"
                  loading={joining === team.id}
                  onClick={() => void join(team)}
                  aria-label={`Join ${team.name}`}
                >
                  Join
                </Button>
              )}
            </Group>
          </Paper>
        ),
      )}
    </Stack>
  );
}

export function WorkspacesPage() {
  const session = useSession();
  const teams = useQuery<{ availableTeams: AvailableTeam[] }>(ops.availableTeams, {}, { workspace: false });
  const list = teams.data?.availableTeams ?? [];
  const members = list.filter((t) => t.type === 'MEMBER');
  const others = list.filter((t) => t.type !== 'MEMBER');

  return (
    <AuthLayout
      title="Choose a workspace"
      subtitle={
        <>
          Signed in as <strong>{session.user?.email}</strong>.
        </>
      }
      width={520}
      footer={
        <span>
          Not you?{' '}
          <Anchor component={Link} to="/auth/logout" fw={600}>
            Sign out
          </Anchor>
        </span>
      }
    >
      <Stack gap="lg">
        {teams.loading && !teams.data ? (
          <SectionLoader label="Loading your workspaces" />
        ) : (
          <ErrorAlert error={teams.error} />
        )}
        {members.length > 0 && (
          <section aria-labelledby="your-workspaces">
            <Title order={2} fz="sm" fw={600} c="dimmed" tt="uppercase" mb="xs" id="your-workspaces">
              Your workspaces
            </Title>
            <TeamList teams={members} />
          </section>
        )}
        {others.length > 0 && (
          <section aria-labelledby="join-workspaces">
            <Title order={2} fz="sm" fw={600} c="dimmed" tt="uppercase" mb="xs" id="join-workspaces">
              Workspaces you can join
            </Title>
            <TeamList teams={others} onChanged={() => void teams.reload()} />
          </section>
        )}
        {teams.data && list.length === 0 && (
          <Text size="sm">
            You are not in any workspace yet. Create one for your team, or ask a colleague to invite you.
          </Text>
        )}
        <Button
          component={Link}
          to="/auth/create-workspace"
          variant={list.length ? 'default' : 'filled'}
          leftSection={<IconPlus size={16} aria-hidden />}
          fullWidth
        >
          Create a new workspace
        </Button>
      </Stack>
    </AuthLayout>
  );
}

/** /auth/join-workspace: the workspaces open to this person's email domain, and invitations. */
export function JoinWorkspacePage() {
  const teams = useQuery<{ availableTeams: AvailableTeam[] }>(ops.availableTeams, {}, { workspace: false });
  const joinable = (teams.data?.availableTeams ?? []).filter((t) => t.type !== 'MEMBER');
  return (
    <AuthLayout
      title="Join a workspace"
      subtitle="Workspaces that invited you or that accept people with your email domain."
      width={520}
      footer={
        <Anchor component={Link} to="/auth/workspaces" fw={600}>
          All your workspaces
        </Anchor>
      }
    >
      <Stack gap="md">
        {teams.loading && !teams.data ? <SectionLoader /> : <ErrorAlert error={teams.error} />}
        {teams.data && joinable.length === 0 && (
          <Text size="sm">
            There is no workspace to join with your email yet. Ask a colleague to invite you, or create a workspace.
          </Text>
        )}
        <TeamList teams={joinable} onChanged={() => void teams.reload()} />
        <Button component={Link} to="/auth/create-workspace" variant="default" fullWidth>
          Create a new workspace
        </Button>
      </Stack>
    </AuthLayout>
  );
}
