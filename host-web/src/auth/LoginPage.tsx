import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconBrandGoogle, IconBrandWindows, IconKey, IconMailCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isWorkspaceNotFound } from '../api/errors.ts';
import { useQuery } from '../api/hooks.ts';
import { ops, type AuthPayload, type TeamEnvironment } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { useServices, useSession } from '../session/SessionProvider.tsx';
import { destinationAfterSignIn, safeNext } from './after-sign-in.ts';
import { EmailCodeSignIn } from './EmailCodeSignIn.tsx';

type Mode = 'password' | 'code' | 'link';

export function LoginPage() {
  const session = useSession();
  const { client } = useServices();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next');
  const [mode, setMode] = useState<Mode>('password');
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [linkSent, setLinkSent] = useState(false);
  const [skippedNote, setSkippedNote] = useState(false);
  const signingIn = useRef(false);
  const env = useQuery<{ teamEnvironment: TeamEnvironment | null }>(ops.teamEnvironment, {}, { auth: false });

  useEffect(() => {
    // A remembered workspace that no longer exists must not block signing in.
    if (isWorkspaceNotFound(env.error)) {
      session.setWorkspace(null);
      void env.reload();
    }
  }, [env.error]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    // Someone already signed in who opens the sign-in page goes on to where they were headed.
    if (session.status === 'signedIn' && !signingIn.current)
      navigate(safeNext(next) ?? (session.workspaceId ? '/home' : '/auth/workspaces'), { replace: true });
  }, [session.status]); // eslint-disable-line react-hooks/exhaustive-deps

  const done = (payload: AuthPayload) => {
    signingIn.current = true;
    session.signedIn(payload);
    navigate(destinationAfterSignIn(payload, next, session.workspaceId), { replace: true });
  };

  async function signInWithPassword(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { signIn } = await client.request<{ signIn: AuthPayload }>(ops.signIn, { email, password });
      done(signIn);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  async function sendLink(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.requestMagicLink, { email }, { workspace: false });
      setLinkSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const te = env.data?.teamEnvironment;
  const providers = [
    te?.googleLogin && {
      key: 'google',
      label: 'Continue with Google',
      icon: <IconBrandGoogle size={18} aria-hidden />,
    },
    te?.microsoftLogin && {
      key: 'microsoft',
      label: 'Continue with Microsoft',
      icon: <IconBrandWindows size={18} aria-hidden />,
    },
    te?.ssoLogin && { key: 'oidc', label: 'Continue with single sign-on', icon: <IconKey size={18} aria-hidden /> },
  ].filter(Boolean) as Array<{ key: string; label: string; icon: ReactNode }>;
  const notice =
    params.get('error') ??
    (session.endedMessage || (params.get('expired') ? 'Your session has expired. Please sign in again.' : null));

  return (
    <AuthLayout
      title={te?.name ? `Sign in to ${te.name}` : 'Sign in to Fieldbook'}
      subtitle="Welcome back. Sign in to get to your research."
      footer={
        <Stack gap={4}>
          <span>
            New to Fieldbook?{' '}
            <Anchor component={Link} to={`/auth/signup${next ? `?next=${encodeURIComponent(next)}` : ''}`} fw={600}>
              Create an account
            </Anchor>
          </span>
          <span>
            Not sure which workspace?{' '}
            <Anchor component={Link} to="/auth/find-workspace" fw={600}>
              Find your workspace
            </Anchor>
          </span>
        </Stack>
      }
    >
      <Stack gap="md">
        {notice && (
          <Alert color="yellow" variant="light" role="alert">
            {notice}
          </Alert>
        )}
        {params.get('signedOut') && !notice && (
          <Alert color="teal" variant="light" role="status">
            You have signed out.
          </Alert>
        )}
        {providers.length > 0 && (
          <>
            <Stack gap="xs">
              {providers.map((p) => (
                <Button
                  key={p.key}
                  component="a"
                  href={`/auth/oidc/${p.key}/start`}
                  variant="default"
                  leftSection={p.icon}
                  fullWidth
                >
                  {p.label}
                </Button>
              ))}
            </Stack>
            <Divider label="or" labelPosition="center" />
          </>
        )}
        <SegmentedControl
          fullWidth
          value={mode}
          onChange={(v) => {
            setMode(v as Mode);
            setError(null);
            setLinkSent(false);
          }}
          data={[
            { value: 'password', label: 'Password' },
            { value: 'code', label: 'Email code' },
            { value: 'link', label: 'Email link' },
          ]}
          aria-label="How to sign in"
        />
        {mode === 'password' && (
          <form onSubmit={signInWithPassword} noValidate>
            <Stack gap="md">
              {skippedNote && (
                <Text size="sm" c="dimmed">
                  You have a password for this workspace: enter it to sign in.
                </Text>
              )}
              <TextInput
                label="Email"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                autoComplete="email"
                required
              />
              <PasswordInput
                label="Password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                autoComplete="current-password"
                required
              />
              <Group justify="flex-end" mt={-8}>
                <Anchor
                  component={Link}
                  to={`/auth/reset-password${email ? `?email=${encodeURIComponent(email)}` : ''}`}
                  size="sm"
                >
                  Forgot your password?
                </Anchor>
              </Group>
              <ErrorAlert error={error} />
              <Button type="submit" loading={busy} fullWidth>
                Sign in
              </Button>
            </Stack>
          </form>
        )}
        {mode === 'code' && (
          <EmailCodeSignIn
            initialEmail={email}
            onSignedIn={done}
            onPasswordInstead={(e) => {
              setEmail(e);
              setSkippedNote(true);
              setMode('password');
            }}
          />
        )}
        {mode === 'link' &&
          (linkSent ? (
            <Alert
              color="teal"
              variant="light"
              icon={<IconMailCheck size={18} aria-hidden />}
              title="Check your inbox"
              role="status"
            >
              If an account exists for <strong>{email}</strong>, we sent it a sign-in link. The link works once and is
              valid for 15 minutes.
            </Alert>
          ) : (
            <form onSubmit={sendLink} noValidate>
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
                  Email me a sign-in link
                </Button>
              </Stack>
            </form>
          ))}
      </Stack>
    </AuthLayout>
  );
}
