import { Alert, Anchor, Button, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '../api/hooks.ts';
import { ops, type InvitePreview, type Membership, type Workspace } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { roleLabel } from '../settings/roles.ts';
import { useServices, useSession } from '../session/SessionProvider.tsx';
import { rememberPendingInvite } from '../session/workspace-choice.ts';
import { CheckYourEmail, SignupForm } from './SignupPage.tsx';

/** /auth/accept-invite?token=: shows the invitation, lets the person sign up or in, then join. */
export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const session = useSession();
  const { client } = useServices();
  const navigate = useNavigate();
  const invite = useQuery<{ inviteByToken: InvitePreview | null }>(
    ops.inviteByToken,
    { token },
    { workspace: false, skip: !token },
  );
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const preview = invite.data?.inviteByToken ?? null;

  useEffect(() => {
    // Signing up goes through an emailed link; it leads back here once the email is confirmed.
    if (token && session.status === 'signedOut') rememberPendingInvite(token);
    // Back here signed in: the invitation has led the person where it should.
    if (session.status === 'signedIn') rememberPendingInvite(null);
  }, [token, session.status]);

  async function accept() {
    setJoining(true);
    setError(null);
    try {
      const { acceptInvite } = await client.request<{
        acceptInvite: Pick<Membership, 'role'> & { workspace: Pick<Workspace, 'id' | 'name'> };
      }>(ops.acceptInvite, { token }, { workspace: false });
      rememberPendingInvite(null);
      session.setWorkspace(acceptInvite.workspace.id);
      navigate('/home', { replace: true });
    } catch (err) {
      setError(err);
      setJoining(false);
    }
  }

  const next = `/auth/accept-invite?token=${encodeURIComponent(token)}`;
  const body = () => {
    if (!token)
      return <Text size="sm">This invitation link is incomplete. Open the link from your invitation email again.</Text>;
    if (invite.loading && !invite.data) return <SectionLoader label="Loading the invitation" />;
    if (invite.error) return <ErrorAlert error={invite.error} />;
    if (!preview) {
      return (
        <Stack gap="sm">
          <Text size="sm">This invitation link is not valid. It may have been revoked or already used.</Text>
          <Text size="sm" c="dimmed">
            Ask the person who invited you to send a new invitation.
          </Text>
        </Stack>
      );
    }
    if (preview.expired) {
      return (
        <Alert color="yellow" variant="light" title="This invitation has expired" role="alert">
          Ask {preview.invitedBy ?? 'the person who invited you'} to send you a new invitation to{' '}
          {preview.workspaceName}.
        </Alert>
      );
    }
    const summary = (
      <Paper withBorder p="md" radius="md" bg="gray.0">
        <Group wrap="nowrap" align="flex-start">
          <IconMailOpened size={28} aria-hidden color="#3b5bdb" style={{ flexShrink: 0 }} />
          <Text size="sm">
            <strong>{preview.invitedBy ?? 'A teammate'}</strong> invited <strong>{preview.email}</strong> to join{' '}
            <strong>{preview.workspaceName}</strong> as {roleLabel(preview.role).toLowerCase()}.
          </Text>
        </Group>
      </Paper>
    );
    if (session.status === 'signedIn') {
      const mismatch = session.user && session.user.email.toLowerCase() !== preview.email.toLowerCase();
      return (
        <Stack gap="md">
          {summary}
          {mismatch && (
            <Alert color="yellow" variant="light" role="alert">
              You are signed in as {session.user!.email}, but this invitation is for {preview.email}. Sign out and sign
              in as {preview.email} to accept it.
            </Alert>
          )}
          <ErrorAlert error={error} />
          <Button onClick={() => void accept()} loading={joining} fullWidth disabled={Boolean(mismatch)}>
            Join {preview.workspaceName}
          </Button>
          {mismatch && (
            <Button component={Link} to="/auth/logout" variant="default" fullWidth>
              Sign out
            </Button>
          )}
        </Stack>
      );
    }
    if (sentTo) return <CheckYourEmail email={sentTo} what="confirm your email and join the workspace" />;
    return (
      <Stack gap="md">
        {summary}
        <Text size="sm" fw={600}>
          Create your account to join
        </Text>
        <SignupForm lockedEmail={preview.email} inviteToken={token} onSent={setSentTo} />
        <Divider label="Already have an account?" labelPosition="center" />
        <Button
          component={Link}
          to={`/auth/login?next=${encodeURIComponent(next)}&email=${encodeURIComponent(preview.email)}`}
          variant="default"
          fullWidth
        >
          Sign in to accept
        </Button>
      </Stack>
    );
  };

  return (
    <AuthLayout
      title={preview && !preview.expired ? `Join ${preview.workspaceName} on Fieldbook` : 'Accept your invitation'}
      width={480}
      footer={
        session.status === 'signedIn' ? (
          <Anchor component={Link} to="/auth/workspaces" fw={600}>
            Your workspaces
          </Anchor>
        ) : undefined
      }
    >
      {body()}
    </AuthLayout>
  );
}
