import { ActionIcon, Anchor, Button, Group, Paper, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '../api/hooks.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { Page } from '../layout/Page.tsx';
import { NotificationSettingsCard } from '../settings/NotificationSettingsCard.tsx';
import { useServices } from '../session/SessionProvider.tsx';

interface Preference {
  kind: string;
  label: string;
  group: string;
  emailDelivery: 'IMMEDIATE' | 'DIGEST' | 'NONE';
  required: boolean;
  inApp: boolean;
  email: boolean;
}
interface Follow {
  objectType: 'PROJECT' | 'INSIGHT' | 'TAG';
  objectId: string;
  objectTitle: string;
  frequency: 'MONTHLY' | 'WEEKLY' | 'DAILY';
  allChangesEnabled: boolean;
  insightsPublishedEnabled: boolean;
  allCommentsEnabled: boolean;
}

const PREF_FIELDS = 'kind label group emailDelivery required inApp email';
const PREFS = `query NotificationPreferences { notificationPreferences { ${PREF_FIELDS} } }`;
const SET_PREF = `mutation SetNotificationPreference($kind: String!, $inApp: Boolean, $email: Boolean) { updateNotificationPreference(kind: $kind, inApp: $inApp, email: $email) { ${PREF_FIELDS} } }`;
const FOLLOW_FIELDS =
  'objectType objectId objectTitle frequency allChangesEnabled insightsPublishedEnabled allCommentsEnabled';
const FOLLOWS = `query MyFollows { follows { ${FOLLOW_FIELDS} } PROJECT: followOptions(objectType: PROJECT) { key label } INSIGHT: followOptions(objectType: INSIGHT) { key label } TAG: followOptions(objectType: TAG) { key label } }`;
const FOLLOW = `mutation ChangeFollow($input: FollowInput!) { followObject(input: $input) { ${FOLLOW_FIELDS} } }`;
const UNFOLLOW = `mutation Unfollow($t: FollowObjectType!, $id: ID!) { unfollowObject(objectType: $t, objectId: $id) }`;

/** A follow option in the words the server gives for the followed object's kind. */
interface FollowOption {
  key: 'allCommentsEnabled' | 'insightsPublishedEnabled' | 'allChangesEnabled';
  label: string;
}

const FREQUENCIES = [
  { value: 'DAILY', label: 'Daily' },
  { value: 'WEEKLY', label: 'Weekly' },
  { value: 'MONTHLY', label: 'Monthly' },
];
const TYPE_LABEL = { PROJECT: 'Project', INSIGHT: 'Insight', TAG: 'Tag' } as const;
const pathOf = (f: Follow) =>
  f.objectType === 'PROJECT'
    ? `/projects/${f.objectId}`
    : f.objectType === 'INSIGHT'
      ? `/insights/${f.objectId}`
      : `/tags/${f.objectId}`;
const emailNote = { IMMEDIATE: 'at once', DIGEST: 'in your digest', NONE: '' } as const;

function KindsCard() {
  const { client } = useServices();
  const q = useQuery<{ notificationPreferences: Preference[] }>(PREFS);
  const [prefs, setPrefs] = useState<Preference[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const shown = prefs ?? q.data?.notificationPreferences ?? null;
  const set = async (kind: string, change: { inApp?: boolean; email?: boolean }) => {
    setError(null);
    try {
      const r = await client.request<{ updateNotificationPreference: Preference[] }>(SET_PREF, { kind, ...change });
      setPrefs(r.updateNotificationPreference);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="kinds-heading">
      <Title order={2} fz="lg" id="kinds-heading" mb={4}>
        What you are notified of
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        For you in every workspace. In the app and by email are separate choices: turning one off keeps the other. Email
        goes at once for what is addressed to you, and in a digest for what you follow.
      </Text>
      <ErrorAlert error={error ?? q.error} />
      {!shown ? (
        <SectionLoader label="Loading your choices…" />
      ) : (
        <Table verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Notification</Table.Th>
              <Table.Th w={90}>In the app</Table.Th>
              <Table.Th w={150}>Email</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((p) => (
              <Table.Tr key={p.kind}>
                <Table.Td>
                  <Text size="sm">{p.label}</Text>
                </Table.Td>
                <Table.Td>
                  {p.kind !== 'digest' && (
                    <Switch
                      aria-label={`${p.label}: in the app`}
                      checked={p.inApp}
                      disabled={p.required}
                      onChange={(e) => void set(p.kind, { inApp: e.currentTarget.checked })}
                    />
                  )}
                </Table.Td>
                <Table.Td>
                  {p.emailDelivery === 'NONE' ? (
                    <Text size="xs" c="gray.7">
                      No email
                    </Text>
                  ) : (
                    <Group gap={6} wrap="nowrap">
                      <Switch
                        aria-label={`${p.label}: by email`}
                        checked={p.email}
                        onChange={(e) => void set(p.kind, { email: e.currentTarget.checked })}
                      />
                      {p.kind !== 'digest' && (
                        <Text size="xs" c="gray.7">
                          {emailNote[p.emailDelivery]}
                        </Text>
                      )}
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function FollowsCard() {
  const { client } = useServices();
  const q = useQuery<{ follows: Follow[] } & Record<Follow['objectType'], FollowOption[]>>(FOLLOWS);
  const [error, setError] = useState<unknown>(null);
  const follows = q.data?.follows ?? [];
  const change = async (query: string, variables: Record<string, unknown>) => {
    setError(null);
    try {
      await client.request(query, variables);
      await q.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="follows-heading">
      <Title order={2} fz="lg" id="follows-heading" mb={4}>
        What you follow in this workspace
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Follow a project, insight or tag from its page. The digest of each is emailed as often as you choose here.
      </Text>
      <ErrorAlert error={error ?? q.error} />
      {q.loading && !q.data ? (
        <SectionLoader label="Loading what you follow…" />
      ) : !follows.length ? (
        <Text size="sm" c="dimmed">
          You follow nothing yet.
        </Text>
      ) : (
        <Stack gap="sm">
          {follows.map((f) => (
            <Paper key={`${f.objectType}:${f.objectId}`} withBorder p="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={6}>
                  <Text size="sm">
                    <Text span size="xs" c="gray.7" mr={6}>
                      {TYPE_LABEL[f.objectType]}
                    </Text>
                    <Anchor component={Link} to={pathOf(f)}>
                      {f.objectTitle}
                    </Anchor>
                  </Text>
                  <Group gap="md">
                    {(q.data?.[f.objectType] ?? []).map((o) => (
                      <Switch
                        key={o.key}
                        size="xs"
                        label={o.label}
                        aria-label={`${f.objectTitle}: ${o.label}`}
                        checked={f[o.key]}
                        onChange={(e) =>
                          void change(FOLLOW, {
                            input: { objectType: f.objectType, objectId: f.objectId, [o.key]: e.currentTarget.checked },
                          })
                        }
                      />
                    ))}
                  </Group>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <Select
                    w={120}
                    size="xs"
                    aria-label={`${f.objectTitle}: digest frequency`}
                    data={FREQUENCIES}
                    value={f.frequency}
                    allowDeselect={false}
                    onChange={(v) =>
                      v &&
                      void change(FOLLOW, { input: { objectType: f.objectType, objectId: f.objectId, frequency: v } })
                    }
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Unfollow ${f.objectTitle}`}
                    onClick={() => void change(UNFOLLOW, { t: f.objectType, id: f.objectId })}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** /settings/user/notifications: per-kind in-app and email choices, follows, and this workspace's options. */
export function NotificationSettingsPage() {
  return (
    <Page
      title="Notification settings"
      description="Choose what reaches you in the app and by email."
      actions={
        <Button variant="default" component={Link} to="/notifications">
          All notifications
        </Button>
      }
    >
      <Stack gap="lg">
        <KindsCard />
        <FollowsCard />
        <NotificationSettingsCard />
      </Stack>
    </Page>
  );
}
