import { Button, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../common/Loading.tsx';
import { MessagePage } from '../common/MessagePage.tsx';
import { useSession } from './SessionProvider.tsx';

/** Fieldbook could not be reached when the app started. */
export function UnreachablePage({ onRetry }: { onRetry: () => void }) {
  return (
    <MessagePage
      icon={<IconWifiOff size={24} />}
      title="Fieldbook can’t be reached"
      actions={[{ label: 'Try again', onClick: onRetry, primary: true }]}
    >
      <Text size="sm">
        Check your internet connection. If you are online, Fieldbook may be restarting or under maintenance; try again
        in a minute.
      </Text>
    </MessagePage>
  );
}

/** Lets signed-in people through; others go to sign-in and come back here afterwards. */
export function RequireSignedIn({ children }: { children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <FullPageLoader />;
  if (session.status === 'unreachable') return <UnreachablePage onRetry={session.retry} />;
  if (session.status === 'signedOut') {
    const next = `${location.pathname}${location.search}${location.hash}`;
    const expired = session.endedMessage ? '&expired=1' : '';
    return <Navigate to={`/auth/login?next=${encodeURIComponent(next)}${expired}`} replace />;
  }
  return children ? <>{children}</> : <Outlet />;
}

/** Waits for the session check, so public screens know whether someone is signed in. */
export function SessionReady({ children }: { children?: ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <FullPageLoader />;
  return children ? <>{children}</> : <Outlet />;
}

/** Restarts a session check from a button (used by the unreachable page). */
export function RetryButton() {
  const session = useSession();
  return <Button onClick={session.retry}>Try again</Button>;
}
