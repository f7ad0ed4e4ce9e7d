import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { GraphQLClient } from '../api/graphql-client.ts';
import { ops, type AuthPayload } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { useServices, useSession } from '../session/SessionProvider.tsx';
import { pendingInvite, rememberPendingInvite } from '../session/workspace-choice.ts';
import { destinationAfterSignIn } from './after-sign-in.ts';
import { NewPasswordField } from './PasswordField.tsx';
import { passwordProblems } from './password-rules.ts';
import { SignInWithTokenPage } from './TokenPage.tsx';

/**
 * Someone who signed up from an invitation (the confirmation link carries it, or this browser
 * remembers it) joins that workspace as they confirm, and lands in it. An invitation that no
 * longer works leaves them where confirming would have (the invite page tells them why).
 */
async function joinInvitedWorkspace(client: GraphQLClient, params: URLSearchParams): Promise<string | null> {
  const invite = params.get('invite') ?? pendingInvite();
  if (!invite) return null;
  try {
    const { acceptInvite } = await client.request<{ acceptInvite: { workspace: { id: string } } }>(
      ops.acceptInvite,
      { token: invite },
      { workspace: false },
    );
    rememberPendingInvite(null);
    return `/team-redirect/${acceptInvite.workspace.id}/home`;
  } catch {
    return `/auth/accept-invite?token=${encodeURIComponent(invite)}`;
  }
}

export function ConfirmEmailPage() {
  const { client } = useServices();
  return (
    <SignInWithTokenPage
      title="Confirming your email"
      working="Confirming your email address…"
      failedHint="Confirmation links work once and for 24 hours. Sign in with your password to get a new one."
      exchange={async (token) =>
        (
          await client.request<{ confirmEmail: AuthPayload }>(
            ops.confirmEmail,
            { input: { method: 'EMAIL', token } },
            { workspace: false },
          )
        ).confirmEmail
      }
      afterSignIn={joinInvitedWorkspace}
    />
  );
}

export function MagicLoginPage() {
  const { client } = useServices();
  const [params] = useSearchParams();
  if (!params.get('token')) return <Navigate to="/auth/login" replace />;
  return (
    <SignInWithTokenPage
      title="Signing you in"
      working="Signing you in…"
      failedHint="Sign-in links work once and for 15 minutes. Ask for a new one on the sign-in page."
      exchange={async (token) =>
        (await client.request<{ magicLogin: AuthPayload }>(ops.magicLogin, { token }, { workspace: false })).magicLogin
      }
    />
  );
}

export function ResetPasswordPage() {
  const { client } = useServices();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const problems = passwordProblems(password);

  async function request(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.requestPasswordReset, { email }, { workspace: false });
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function reset(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (problems.length) return;
    setBusy(true);
    setError(null);
    try {
      const { resetPassword } = await client.request<{ resetPassword: AuthPayload }>(
        ops.resetPassword,
        { token, password },
        { workspace: false },
      );
      session.signedIn(resetPassword);
      navigate(destinationAfterSignIn(resetPassword, null, session.workspaceId), { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  if (token) {
    return (
      <AuthLayout title="Choose a new password" subtitle="Other devices signed in to your account will be signed out.">
        <form onSubmit={reset} noValidate>
          <Stack gap="md">
            <NewPasswordField
              label="New password"
              value={password}
              onChange={setPassword}
              autoFocus
              error={tried && problems.length ? `Your password needs ${problems.join(', ')}.` : null}
            />
            <ErrorAlert error={error} />
            <Button type="submit" loading={busy} fullWidth>
              Save password and sign in
            </Button>
          </Stack>
        </form>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter the email of your account and we’ll send you a link to choose a new password."
      footer={
        <Anchor component={Link} to="/auth/login" fw={600}>
          Back to sign in
        </Anchor>
      }
    >
      {sent ? (
        <Alert color="teal" variant="light" title="Check your inbox" role="status">
          If an account exists for <strong>{email}</strong>, we sent it a reset link. The link works once and is valid
          for 1 hour.
        </Alert>
      ) : (
        <form onSubmit={request} noValidate>
          <Stack gap="md">
            <TextInput
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="email"
              required
            />
            <ErrorAlert error={error} />
            <Button type="submit" loading={busy} fullWidth>
              Email me a reset link
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}

export function UnlockPage() {
  const { client } = useServices();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<'idle' | 'working' | 'done' | 'sent'>(token ? 'working' : 'idle');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<unknown>(null);
  const sentOnce = useRef(false);

  useEffect(() => {
    if (!token || sentOnce.current) return;
    sentOnce.current = true;
    client
      .request(ops.unlockAccount, { token }, { workspace: false })
      .then(() => setState('done'))
      .catch((err: unknown) => {
        setError(err);
        setState('idle');
      });
  }, [token, client]);

  async function request(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await client.request(ops.requestUnlock, { email }, { workspace: false });
      setState('sent');
    } catch (err) {
      setError(err);
    }
  }

  return (
    <AuthLayout title="Unlock your account">
      {state === 'done' ? (
        <Stack gap="md">
          <Text size="sm">Your account is unlocked. You can sign in again.</Text>
          <Button component={Link} to="/auth/login" fullWidth>
            Go to sign in
          </Button>
        </Stack>
      ) : state === 'sent' ? (
        <Alert color="teal" variant="light" title="Check your inbox" role="status">
          If that account is locked, we sent it an unlock link.
        </Alert>
      ) : state === 'working' ? (
        <Text size="sm" role="status">
          Unlocking your account…
        </Text>
      ) : (
        <form onSubmit={request} noValidate>
          <Stack gap="md">
            <ErrorAlert error={error} />
            <TextInput
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="email"
              required
            />
            <Button type="submit" fullWidth>
              Email me an unlock link
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}

export function LogoutPage() {
  const session = useSession();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void session.signOut().then(() => navigate('/auth/login?signedOut=1', { replace: true }));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <AuthLayout title="Signing out">
      <Text size="sm" role="status">
        Signing you out…
      </Text>
    </AuthLayout>
  );
}
