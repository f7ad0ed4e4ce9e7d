import { Anchor, Button, Group, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { GraphQLRequestError } from '../api/errors.ts';
import { ops, type AuthPayload } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { useServices } from '../session/SessionProvider.tsx';
import { RECAPTCHA_TOKEN } from './after-sign-in.ts';

interface SendResult {
  success: boolean;
  message: string | null;
  outcome: 'EMAIL_SENT' | 'EMAIL_SKIPPED' | 'EMAIL_ONE_TIME_CODE' | null;
  teamId: string | null;
  codeChallenge: string | null;
}

/**
 * Passwordless sign-in by a six-digit code sent by email (002 §4 EMAIL_ONE_TIME_CODE). When the
 * workspace knows this person has a password, the server skips the mail (EMAIL_SKIPPED) and the
 * caller switches to the password form.
 */
export function EmailCodeSignIn({
  initialEmail = '',
  onSignedIn,
  onPasswordInstead,
  submitLabel = 'Email me a sign-in code',
}: {
  initialEmail?: string;
  onSignedIn: (payload: AuthPayload) => void;
  onPasswordInstead?: (email: string) => void;
  submitLabel?: string;
}) {
  const { client } = useServices();
  const [email, setEmail] = useState(initialEmail);
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function send(e?: FormEvent) {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { sendConfirmationEmail: r } = await client.request<{ sendConfirmationEmail: SendResult }>(
        ops.sendConfirmationEmail,
        {
          input: { email, recaptchaToken: RECAPTCHA_TOKEN, useOneTimeCodeFlow: true },
        },
      );
      if (!r.success)
        setError(
          new GraphQLRequestError(200, [
            {
              message: r.message ?? 'We could not send the email. Please try again.',
              extensions: { humanReadable: true },
            },
          ]),
        );
      else if (r.outcome === 'EMAIL_SKIPPED' && onPasswordInstead) onPasswordInstead(email);
      else if (r.codeChallenge) setChallenge(r.codeChallenge);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function confirm(e?: FormEvent, value = code) {
    e?.preventDefault();
    if (!challenge || value.length !== 6) return;
    setBusy(true);
    setError(null);
    try {
      const { confirmEmail } = await client.request<{ confirmEmail: AuthPayload }>(ops.confirmEmail, {
        input: { method: 'ONE_TIME_CODE', codeChallenge: challenge, code: value },
      });
      onSignedIn(confirmEmail);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  if (challenge) {
    return (
      <form onSubmit={confirm} noValidate>
        <Stack gap="md">
          <Text size="sm">
            We sent a six-digit code to <strong>{email}</strong>. It is valid for 10 minutes.
          </Text>
          <div>
            <Text component="label" htmlFor="one-time-code" size="sm" fw={500} display="block" mb={6}>
              Sign-in code
            </Text>
            <PinInput
              id="one-time-code"
              length={6}
              type="number"
              oneTimeCode
              value={code}
              onChange={setCode}
              onComplete={(v) => void confirm(undefined, v)}
              aria-label="Sign-in code"
              autoFocus
            />
          </div>
          <ErrorAlert error={error} />
          <Button type="submit" loading={busy} disabled={code.length !== 6} fullWidth>
            Sign in
          </Button>
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={() => void send()}>
              Send a new code
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => (setChallenge(null), setCode(''))}>
              Use another email
            </Anchor>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={send} noValidate>
      <Stack gap="md">
        <TextInput
          label="Work email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          autoComplete="email"
          required
        />
        <ErrorAlert error={error} />
        <Button type="submit" loading={busy} fullWidth>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
