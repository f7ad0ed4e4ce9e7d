import { ActionIcon, Box, Button, Divider, Group, Indicator, Popover, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '../api/hooks.ts';
import { useServices } from '../session/SessionProvider.tsx';
import { notificationText } from './notification-text.ts';

interface Notification {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  read: boolean;
  createdAt: string;
}

const LIST = `query HeaderNotifications { notifications(first: 20) { id type payload read createdAt } }`;
const MARK_READ = `mutation HeaderMarkNotificationsRead($ids: [ID!]!) { markNotificationsRead(ids: $ids) }`;
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The header's bell (a popover of buttons, not a menu: it holds a heading and an action too): the latest notifications, unread ones marked; opening one or "Mark all read" marks them read. */
export function NotificationMenu() {
  const { client } = useServices();
  const navigate = useNavigate();
  const list = useQuery<{ notifications: Notification[] }>(LIST);
  const [busy, setBusy] = useState(false);
  const [opened, setOpened] = useState(false);
  const items = list.data?.notifications ?? [];
  const unread = items.filter((n) => !n.read);

  const markRead = async (ids: string[]) => {
    if (!ids.length) return;
    setBusy(true);
    try {
      await client.request(MARK_READ, { ids });
      await list.reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popover position="bottom-end" width={340} shadow="md" opened={opened} onChange={setOpened}>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={unread.length ? `Notifications, ${unread.length} unread` : 'Notifications'}
          aria-expanded={opened}
          onClick={() => {
            if (!opened) void list.reload();
            setOpened((o) => !o);
          }}
        >
          <Indicator disabled={!unread.length} label={unread.length > 9 ? '9+' : unread.length} size={16} offset={-2} color="red.8">
            <IconBell size={20} aria-hidden />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} aria-label="Notifications">
        <Group justify="space-between" px="sm" py={6}>
          <Text size="sm" fw={600}>
            Notifications
          </Text>
          <Button size="compact-xs" variant="subtle" disabled={!unread.length} loading={busy} onClick={() => void markRead(unread.map((n) => n.id))}>
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
          {items.map((n) => {
            const { text, to } = notificationText(n.type, n.payload);
            return (
              <li key={n.id}>
                <UnstyledButton
                  w="100%"
                  px="sm"
                  py={6}
                  style={{ borderRadius: 6 }}
                  className="fb-notification"
                  onClick={() => {
                    if (!n.read) void markRead([n.id]);
                    if (to) {
                      setOpened(false);
                      navigate(to);
                    }
                  }}
                >
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Box mt={6} w={8} h={8} style={{ flexShrink: 0, borderRadius: 8, background: n.read ? 'transparent' : 'var(--mantine-color-red-8)' }} aria-hidden />
                    <div>
                      <Text size="sm" fw={n.read ? 400 : 600}>
                        {text}
                        {!n.read && <VisuallyHidden> (unread)</VisuallyHidden>}
                      </Text>
                      <Text size="xs" c="gray.7">
                        {when.format(new Date(n.createdAt))}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              </li>
            );
          })}
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}
