import { Anchor, Box, Button, Divider, Group, Popover, Text } from '@mantine/core';
import { useState, type ReactElement } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '../api/hooks.ts';
import { useServices } from '../session/SessionProvider.tsx';
import { NOTIFICATION_FIELDS, NotificationItem, type NotificationEntry } from '../notifications/NotificationItem.tsx';

const LIST = `query HeaderNotifications { notifications(first: 20) { ${NOTIFICATION_FIELDS} } }`;
const MARK_READ = `mutation HeaderMarkNotificationsRead($ids: [ID!]!) { markNotificationsRead(ids: $ids) }`;

/**
 * The bell's list (a popover of buttons, not a menu: it holds a heading and an action too): the
 * latest notifications, unread ones marked; opening one or "Mark all read" marks them read.
 * Loaded on first use by NotificationBell, which draws the button (`renderTrigger`).
 */
export function NotificationMenu({
  renderTrigger,
  onChanged,
  initiallyOpened,
}: {
  renderTrigger(onClick: () => void, expanded: boolean): ReactElement;
  onChanged(): void;
  initiallyOpened: boolean;
}) {
  const { client } = useServices();
  const navigate = useNavigate();
  const list = useQuery<{ notifications: NotificationEntry[] }>(LIST);
  const [busy, setBusy] = useState(false);
  const [opened, setOpened] = useState(initiallyOpened);
  const items = list.data?.notifications ?? [];
  const unread = items.filter((n) => !n.read);

  const markRead = async (ids: string[]) => {
    if (!ids.length) return;
    setBusy(true);
    try {
      await client.request(MARK_READ, { ids });
      await list.reload();
      onChanged();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popover position="bottom-end" width={340} shadow="md" opened={opened} onChange={setOpened}>
      <Popover.Target>
        {renderTrigger(() => {
          if (!opened) {
            void list.reload();
            onChanged();
          }
          setOpened((o) => !o);
        }, opened)}
      </Popover.Target>
      <Popover.Dropdown p={0} aria-label="Notifications">
        <Group justify="space-between" px="sm" py={6}>
          <Text size="sm" fw={600}>
            Notifications
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={!unread.length}
            loading={busy}
            onClick={() => void markRead(unread.map((n) => n.id))}
          >
            Mark all read
          </Button>
        </Group>
        <Divider />
        {!items.length && (
          <Text size="sm" c="dimmed" px="sm" py="md">
            Nothing new. Mentions, comments on your work and finished exports and imports show up here.
          </Text>
        )}
        <Box component="ul" mah={360} m={0} p={4} style={{ overflowY: 'auto', listStyle: 'none' }}>
          {items.map((n) => (
            <NotificationItem
              key={n.id}
              notification={n}
              onOpen={(to) => {
                if (!n.read) void markRead([n.id]);
                if (to) {
                  setOpened(false);
                  navigate(to);
                }
              }}
            />
          ))}
        </Box>
        <Divider />
        <Box px="sm" py={6}>
          <Anchor component={Link} to="/notifications" size="sm" onClick={() => setOpened(false)}>
            See all notifications
          </Anchor>
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}
