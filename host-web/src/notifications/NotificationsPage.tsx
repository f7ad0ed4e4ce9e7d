import { Button, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '../api/hooks.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { Page } from '../layout/Page.tsx';
import { useServices } from '../session/SessionProvider.tsx';
import { NOTIFICATION_FIELDS, NotificationItem, type NotificationEntry } from './NotificationItem.tsx';

const LIST = `query NotificationCentre($unreadOnly: Boolean) { notifications(first: 200, unreadOnly: $unreadOnly) { ${NOTIFICATION_FIELDS} } }`;
const MARK_READ = `mutation NotificationCentreMarkRead($ids: [ID!]!) { markNotificationsRead(ids: $ids) }`;
const MARK_ALL = `mutation NotificationCentreMarkAll { markAllNotificationsRead }`;

/** /notifications: every notification, or the unread ones; opening one marks it read and goes to its object. */
export function NotificationsPage() {
  const { client } = useServices();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<'unread' | 'all'>('unread');
  const list = useQuery<{ notifications: NotificationEntry[] }>(LIST, { unreadOnly: filter === 'unread' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const items = list.data?.notifications ?? [];

  const run = async (query: string, variables: Record<string, unknown> = {}) => {
    setBusy(true);
    setError(null);
    try {
      await client.request(query, variables);
      await list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page
      title="Notifications"
      description="Mentions, comments, what you follow and finished work. Choose what you get in your notification settings."
      actions={
        <>
          <Button variant="default" component={Link} to="/settings/user/notifications">
            Notification settings
          </Button>
          <Button onClick={() => void run(MARK_ALL)} loading={busy} disabled={!items.some((n) => !n.read)}>
            Mark all read
          </Button>
        </>
      }
    >
      <Stack gap="md">
        <SegmentedControl
          w="fit-content"
          value={filter}
          onChange={(v) => setFilter(v === 'all' ? 'all' : 'unread')}
          data={[
            { value: 'unread', label: 'Unread' },
            { value: 'all', label: 'All' },
          ]}
          aria-label="Show"
        />
        <ErrorAlert error={error ?? list.error} />
        {list.loading && !list.data ? (
          <SectionLoader label="Loading your notifications…" />
        ) : !items.length ? (
          <Paper withBorder p="lg">
            <Text size="sm" c="dimmed">
              {filter === 'unread'
                ? 'You have read everything.'
                : 'No notifications yet. Follow a project, insight or tag to hear about it here.'}
            </Text>
          </Paper>
        ) : (
          <Paper withBorder p={4} component="ul" m={0} style={{ listStyle: 'none' }} aria-label="Notifications">
            {items.map((n) => (
              <NotificationItem
                key={n.id}
                roomy
                notification={n}
                onOpen={(to) => {
                  if (!n.read) void client.request(MARK_READ, { ids: [n.id] }).catch(() => undefined);
                  if (to) navigate(to);
                  else void list.reload();
                }}
              />
            ))}
          </Paper>
        )}
      </Stack>
    </Page>
  );
}
