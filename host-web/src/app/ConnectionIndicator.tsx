import { Alert, Badge, Button, Group, Text } from '@mantine/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { isDown, ping, type ConnectionStatus } from '../api/connection.ts';
import { useServices } from '../session/SessionProvider.tsx';

const LABELS: Record<ConnectionStatus, { text: string; color: string } | null> = {
  connecting: null,
  connected: null,
  reconnecting: { text: 'Reconnecting…', color: 'yellow' },
  reconnected: { text: 'Reconnected', color: 'green' },
  clientOffline: { text: 'You are offline', color: 'gray' },
  serverOffline: { text: 'Fieldbook is unreachable', color: 'red' },
};

/** How often to check /ping while the connection is not healthy. */
const PING_EVERY_MS = 5000;
const SETTLE_AFTER_MS = 3000;

function useConnection() {
  const { connection } = useServices();
  return useSyncExternalStore(
    (cb) => connection.subscribe(cb),
    () => connection.current,
  );
}

/**
 * The connection status (000 §4): nothing while all is well; a small badge while reconnecting or
 * offline; a banner when recent failures say Fieldbook is down or under maintenance. While
 * unhealthy it checks /ping so the status recovers without the person doing anything.
 */
export function ConnectionIndicator() {
  const { connection } = useServices();
  const state = useConnection();

  useEffect(() => {
    const offline = () => connection.dispatch({ type: 'browserOffline' });
    const online = () => connection.dispatch({ type: 'browserOnline' });
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [connection]);

  useEffect(() => {
    if (state.status === 'reconnected') {
      const t = setTimeout(() => connection.dispatch({ type: 'settle' }), SETTLE_AFTER_MS);
      return () => clearTimeout(t);
    }
    if (state.status !== 'reconnecting' && state.status !== 'serverOffline' && state.status !== 'clientOffline') return;
    const t = setInterval(async () => {
      const ok = await ping();
      connection.dispatch(ok ? { type: 'httpOk' } : { type: 'httpNetworkError', browserOnline: navigator.onLine });
    }, PING_EVERY_MS);
    return () => clearInterval(t);
  }, [state.status, connection]);

  const label = LABELS[state.status];
  return (
    <div aria-live="polite" role="status">
      {isDown(state) ? (
        <Alert color="red" variant="filled" radius={0} py={8} title={null}>
          <Text size="sm" fw={500}>
            Fieldbook seems to be down or under maintenance. Your work is safe; we’ll reconnect as soon as it’s back.
          </Text>
        </Alert>
      ) : (
        label && (
          <Badge
            color={label.color}
            variant="light"
            size="lg"
            tt="none"
            pos="fixed"
            bottom={16}
            left={16}
            style={{ zIndex: 300 }}
          >
            {label.text}
          </Badge>
        )
      )}
    </div>
  );
}

/** Offers a reload once the server runs a newer release than the one this page was loaded with. */
export function ReleaseBanner() {
  const { release } = useServices();
  const [, force] = useState(0);
  useEffect(() => {
    const l = () => force((n) => n + 1);
    release.listeners.add(l);
    return () => void release.listeners.delete(l);
  }, [release]);
  if (!release.loaded || !release.latest || release.loaded === release.latest) return null;
  return (
    <Alert color="indigo" variant="light" radius={0} py={6}>
      <Group justify="center" gap="sm">
        <Text size="sm">A new version of Fieldbook is available.</Text>
        <Button size="compact-sm" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Group>
    </Alert>
  );
}
