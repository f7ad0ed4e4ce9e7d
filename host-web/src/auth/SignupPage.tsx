import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ops } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { useServices } from '../session/SessionProvider.tsx';
import { NewPasswordField } from './PasswordField.tsx';
import { passwordProblems } from './password-rules.ts';

/** Sign-up by name, email and password; the account starts once the emailed link is opened. */
export function SignupForm({
  lockedEmail,
  inviteToken,
  onSent,
}: {
  lockedEmail?: string;
  inviteToken?: string;
  onSent: (email: string) => void;
}) {
  const { client } = useServices();
  const [params] = useSearchParams();
  const [name, setName] = useState('');
  const [email, setEmail] = useState(lockedEmail ?? params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const problems = passwordProblems(password);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (problems.length || !name.trim() || !email.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await client.request(
        ops.signUp,
        { input: { name: name.trim(), email: email.trim(), password, ...(inviteToken ? { inviteToken } : {}) } },
        { workspace: false },
      );
      onSent(email.trim());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Your name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          autoComplete="name"
          required
          maxLength={100}
          error={tried && !name.trim() ? 'Enter your name.' : undefined}
        />
        <TextInput
          label="Work email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          autoComplete="email"
          required
          maxLength={100}
          readOnly={Boolean(lockedEmail)}
          description={lockedEmail ? 'The invitation was sent to this address.' : undefined}
          error={tried && !email.trim() ? 'Enter your email address.' : undefined}
        />
        <NewPasswordField
          value={password}
          onChange={setPassword}
          error={tried && problems.length ? `Your password needs ${problems.join(', ')}.` : null}
        />
        <ErrorAlert error={error} />
        <Button type="submit" loading={busy} fullWidth>
          Create account
        </Button>
        <Text size="xs" c="dimmed">
          We’ll email you a link to confirm your address before your account starts.
        </Text>
      </Stack>
    </form>
  );
}

export function CheckYourEmail({ email, what = 'confirm your email address' }: { email: string; what?: string }) {
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconMailCheck size={20} aria-hidden />}
      title="Check your inbox"
      role="status"
    >
      <Text size="sm">
        If this email can sign up, a link is on its way to <strong>{email}</strong>. Open it to {what}. The link works
        once and is valid for 24 hours.
      </Text>
      <Text size="sm" mt="xs">
        Nothing there? Look in your spam folder. If you already have an account, the email says so: sign in instead.
      </Text>
    </Alert>
  );
}

export function SignupPage() {
  const [sent, setSent] = useState<string | null>(null);
  return (
    <AuthLayout
      title={sent ? 'Confirm your email' : 'Create your Fieldbook account'}
      subtitle={sent ? undefined : 'Keep your team’s customer research in one place.'}
      footer={
        <span>
          Already have an account?{' '}
          <Anchor component={Link} to="/auth/login" fw={600}>
            Sign in
          </Anchor>
        </span>
      }
    >
      {sent ? <CheckYourEmail email={sent} /> : <SignupForm onSent={setSent} />}
    </AuthLayout>
  );
}
