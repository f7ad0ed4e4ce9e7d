import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { useQuery } from '../api/hooks.ts';

type Centre = typeof import('./NotificationMenu.tsx');

let loading: Promise<Centre> | null = null;
/** The notification centre's code, fetched once; a failed download is tried again on the next click. */
function loadCentre(): Promise<Centre> {
  loading ??= import('./NotificationMenu.tsx').catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

const COUNT = `query HeaderUnreadNotifications { unreadNotificationCount }`;

/**
 * The header's bell. Only the button and its unread count are part of the shell: the list (a
 * popover, with its positioning code) loads on first use, as the header menus do, and the click
 * that loads it opens it.
 */
export function NotificationBell() {
  // Counted again on each page change: opening a notification or the centre reads some.
  const { pathname } = useLocation();
  const count = useQuery<{ unreadNotificationCount: number }>(COUNT, {}, { key: pathname });
  const [centre, setCentre] = useState<Centre | null>(null);
  const unread = count.data?.unreadNotificationCount ?? 0;
  const prefetch = useCallback(() => void loadCentre().catch(() => undefined), []);
  const open = useCallback(() => {
    loadCentre().then(setCentre, () => undefined);
  }, []);
  const reloadCount = useCallback(() => void count.reload(), [count.reload]);

  const button = (onClick?: () => void, expanded = false) => (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
      aria-haspopup="dialog"
      aria-expanded={expanded}
      onClick={onClick}
      onPointerEnter={centre ? undefined : prefetch}
    >
      <Indicator disabled={!unread} label={unread > 9 ? '9+' : unread} size={16} offset={-2} color="red.8">
        <IconBell size={20} aria-hidden />
      </Indicator>
    </ActionIcon>
  );
  if (!centre) return button(open);
  return <centre.NotificationMenu renderTrigger={button} onChanged={reloadCount} initiallyOpened />;
}
