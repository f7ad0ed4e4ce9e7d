import { notificationsStore } from '@mantine/notifications';
import { lazy, Suspense, useEffect, useState } from 'react';

// The container (transitions, portal, the notification card) is loaded with the first
// notification; until then the app carries only the store that `notifications.show` writes to.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

const anyShown = (): boolean => {
  const state = notificationsStore.getState();
  return state.notifications.length + state.queue.length > 0;
};

/**
 * Mantine's notifications container, drawn once a page first shows a notification. The store
 * keeps what was shown meanwhile, so the container shows it as soon as it is loaded.
 */
export function NotificationsOnDemand({ position, limit }: { position: 'top-right'; limit: number }) {
  const [wanted, setWanted] = useState(anyShown);
  useEffect(() => {
    if (wanted) return undefined;
    if (anyShown()) {
      setWanted(true);
      return undefined;
    }
    return notificationsStore.subscribe(() => anyShown() && setWanted(true));
  }, [wanted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position={position} limit={limit} />
    </Suspense>
  );
}
