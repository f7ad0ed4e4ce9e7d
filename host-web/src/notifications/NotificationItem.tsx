import { Box, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { notificationText } from '../layout/notification-text.ts';

/** A notification as the bell and the notification centre list it. */
export interface NotificationEntry {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  read: boolean;
  createdAt: string;
}

/** The fields both lists ask for. */
export const NOTIFICATION_FIELDS = 'id type payload read createdAt';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * One notification in a list: what happened, when, and a dot while unread (said aloud as
 * "unread"). Clicking it hands where it leads to `onOpen`.
 */
export function NotificationItem({
  notification: n,
  onOpen,
  roomy = false,
}: {
  notification: NotificationEntry;
  onOpen(to: string | null): void;
  roomy?: boolean;
}) {
  const { text, to } = notificationText(n.type, n.payload);
  return (
    <li>
      <UnstyledButton
        w="100%"
        px={roomy ? 'md' : 'sm'}
        py={roomy ? 'sm' : 6}
        style={{ borderRadius: 6 }}
        className="fb-notification"
        onClick={() => onOpen(to)}
      >
        <Group gap={roomy ? 'sm' : 'xs'} wrap="nowrap" align="flex-start">
          <Box
            mt={roomy ? 7 : 6}
            w={8}
            h={8}
            style={{
              flexShrink: 0,
              borderRadius: 8,
              background: n.read ? 'transparent' : 'var(--mantine-color-red-8)',
            }}
            aria-hidden
          />
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
}
