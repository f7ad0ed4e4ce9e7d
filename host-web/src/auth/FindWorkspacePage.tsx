import { Anchor, Stack, Text } from '@mantine/core';
import { Link, Navigate, useNavigate } from 'react-router';
import type { AuthPayload } from '../api/operations.ts';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { EmailCodeSignIn } from './EmailCodeSignIn.tsx';

/** Finds the workspaces of an email: proves the address with a code, then lists them. */
export function FindWorkspacePage() {
  const session = useSession();
  const navigate = useNavigate();
  if (session.status === 'signedIn') return <Navigate to="/auth/workspaces" replace />;
  const done = (payload: AuthPayload) => {
    session.signedIn(payload);
    navigate('/auth/workspaces', { replace: true });
  };
  return (
    <AuthLayout
      title="Find your workspace"
      subtitle="Enter your work email. We’ll send you a code, then show the workspaces you can enter."
      footer={
        <Anchor component={Link} to="/auth/login" fw={600}>
          Back to sign in
        </Anchor>
      }
    >
      <Stack gap="md">
        <EmailCodeSignIn onSignedIn={done} submitLabel="Send me a code" />
        <Text size="xs" c="dimmed">
          Your workspaces include those you belong to, those you were invited to, and those open to your email domain.
        </Text>
      </Stack>
    </AuthLayout>
  );
}
