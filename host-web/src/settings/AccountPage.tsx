import { Button, Group, Paper, PasswordInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { THEME_LABELS, type ThemeMode } from '../app/color-scheme.ts';
import { useThemeMode } from './useThemeMode.ts';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { ops, type User } from '../api/operations.ts';
import { NewPasswordField } from '../auth/PasswordField.tsx';
import { passwordProblems } from '../auth/password-rules.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { Page } from '../layout/Page.tsx';
import { NotificationSettingsCard } from './NotificationSettingsCard.tsx';
import { useServices, useSession } from '../session/SessionProvider.tsx';

function ProfileForm() {
  const { client } = useServices();
  const session = useSession();
  const user = session.user!;
  const [name, setName] = useState(user.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { updateProfile } = await client.request<{ updateProfile: User }>(ops.updateProfile, { name: name.trim() });
      session.setUser(updateProfile);
      notifications.show({ color: 'teal', message: 'Your name was saved.' });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="profile-heading">
      <Title order={2} fz="lg" id="profile-heading" mb="md">
        Profile
      </Title>
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={100}
            required
            autoComplete="name"
          />
          <TextInput
            label="Email"
            value={user.email}
            readOnly
            description="Your email is how you sign in; it cannot be changed here."
          />
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button type="submit" loading={busy} disabled={!name.trim() || name.trim() === user.name}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function PasswordForm() {
  const { client } = useServices();
  const { user } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const problems = passwordProblems(next);
  const hasPassword = user?.hasPassword ?? true;

  async function save(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (problems.length || (hasPassword && !current)) return;
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.changePassword, { currentPassword: current, newPassword: next });
      notifications.show({ color: 'teal', message: 'Your password was changed. Other devices were signed out.' });
      setCurrent('');
      setNext('');
      setTried(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-heading">
      <Title order={2} fz="lg" id="password-heading">
        {hasPassword ? 'Change password' : 'Set a password'}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {hasPassword
          ? 'Changing your password signs you out on other devices.'
          : 'You sign in by email today. A password lets you sign in without waiting for an email.'}
      </Text>
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          {hasPassword && (
            <PasswordInput
              label="Current password"
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
              autoComplete="current-password"
              required
              error={tried && !current ? 'Enter your current password.' : undefined}
            />
          )}
          <NewPasswordField
            label="New password"
            value={next}
            onChange={setNext}
            error={tried && problems.length ? `Your password needs ${problems.join(', ')}.` : null}
          />
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              {hasPassword ? 'Change password' : 'Set password'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** /settings/user/account: the person's own name and password. */
/** Light, dark or the browser's theme (001 §2), kept with the account. */
function AppearanceCard() {
  const { mode, choose } = useThemeMode();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="appearance-heading">
      <Title order={2} fz="lg" id="appearance-heading" mb="md">
        Appearance
      </Title>
      <Radio.Group label="Theme" value={mode} onChange={(v) => void choose(v as ThemeMode)}>
        <Group mt="xs">
          {(Object.keys(THEME_LABELS) as ThemeMode[]).map((m) => (
            <Radio key={m} value={m} label={THEME_LABELS[m]} />
          ))}
        </Group>
      </Radio.Group>
    </Paper>
  );
}

export function AccountPage() {
  return (
    <Page title="Account" description="Your own profile and sign-in settings. These apply in every workspace.">
      <Stack gap="lg">
        <ProfileForm />
        <PasswordForm />
        <AppearanceCard />
        <NotificationSettingsCard />
      </Stack>
    </Page>
  );
}
