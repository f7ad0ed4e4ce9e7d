import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from '../api/hooks.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { useServices } from '../session/SessionProvider.tsx';

type Key = 'allCommentsEnabled' | 'allChangesEnabled' | 'insightsPublishedEnabled' | 'emailNotificationsDisabled';
type Settings = Record<Key, boolean>;

const FIELDS = 'allCommentsEnabled allChangesEnabled insightsPublishedEnabled emailNotificationsDisabled';
const GET = `query AccountNotificationSettings { notificationSettings { ${FIELDS} } }`;
const UPDATE = `mutation AccountUpdateNotificationSettings($input: UpdateNotificationSettingsInput!) { updateNotificationSettings(input: $input) { ${FIELDS} } }`;

const SWITCHES: Array<{ key: Key; label: string; description: string }> = [
  {
    key: 'allCommentsEnabled',
    label: 'Comments on your work',
    description:
      'Comments on notes and insights you wrote, edited or commented on, in the app and by email. Mentions always arrive in the app.',
  },
  {
    key: 'allChangesEnabled',
    label: 'Changes to your work',
    description: 'When someone else changes a note or insight you wrote.',
  },
  {
    key: 'insightsPublishedEnabled',
    label: 'Published insights',
    description: 'When an insight is published in a project you can read.',
  },
  {
    key: 'emailNotificationsDisabled',
    label: 'No email',
    description: 'Send no notification by email; they still arrive in the app.',
  },
];

/** The person's notification settings in this workspace; each switch saves on its own. */
export function NotificationSettingsCard() {
  const { client } = useServices();
  const q = useQuery<{ notificationSettings: Settings }>(GET);
  const [saving, setSaving] = useState<Key | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const shown = settings ?? q.data?.notificationSettings ?? null;

  const change = async (key: Key, value: boolean) => {
    setSaving(key);
    setError(null);
    try {
      const r = await client.request<{ updateNotificationSettings: Settings }>(UPDATE, { input: { [key]: value } });
      setSettings(r.updateNotificationSettings);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(null);
    }
  };

  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="lg" mb={4}>
        Notifications
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        For this workspace.
      </Text>
      {q.error && !shown ? <ErrorAlert error={q.error} onRetry={() => void q.reload()} /> : null}
      {!shown && !q.error ? <SectionLoader label="Loading your notification settings" /> : null}
      {shown && (
        <Stack gap="md">
          {SWITCHES.map((s) => (
            <Switch
              key={s.key}
              label={s.label}
              description={s.description}
              checked={shown[s.key]}
              disabled={saving !== null}
              onChange={(e) => void change(s.key, e.currentTarget.checked)}
            />
          ))}
        </Stack>
      )}
      <ErrorAlert error={error} title="The setting was not saved" />
    </Card>
  );
}
