import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '../layout/AuthLayout.tsx';

/**
 * /unsubscribe?token=…: the page an email's unsubscribe link opens. One button, no sign-in: the
 * signed token says whose email and which kind (mail clients that support one-click post the
 * same URL themselves).
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<
    { status: 'idle' | 'working' } | { status: 'done'; label: string } | { status: 'failed'; message: string }
  >({ status: 'idle' });

  const unsubscribe = async () => {
    setState({ status: 'working' });
    try {
      const res = await fetch(`/email/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      const body = (await res.json().catch(() => ({}))) as { label?: string; error?: string };
      if (res.ok && body.label) setState({ status: 'done', label: body.label });
      else
        setState({
          status: 'failed',
          message: body.error ?? 'This unsubscribe link did not work. Try again in a moment.',
        });
    } catch {
      setState({ status: 'failed', message: 'Fieldbook could not be reached. Check your connection and try again.' });
    }
  };

  return (
    <AuthLayout title="Unsubscribe">
      <Stack gap="md">
        {state.status === 'done' ? (
          <Alert color="teal" variant="light" title="You are unsubscribed" role="status">
            No more email for: {state.label}. It still shows in the app.
          </Alert>
        ) : (
          <>
            <Text size="sm">
              Stop the emails this link came with? You can turn them back on in your notification settings.
            </Text>
            {state.status === 'failed' && (
              <Alert color="red" variant="light" role="alert">
                {state.message}
              </Alert>
            )}
            <Button onClick={() => void unsubscribe()} loading={state.status === 'working'} disabled={!token} fullWidth>
              Unsubscribe
            </Button>
          </>
        )}
        <Anchor component={Link} to="/settings/user/notifications" size="sm">
          Open notification settings
        </Anchor>
      </Stack>
    </AuthLayout>
  );
}
