import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { GraphQLClient } from '../api/graphql-client.ts';
import type { AuthPayload } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { useServices, useSession } from '../session/SessionProvider.tsx';
import { destinationAfterSignIn } from './after-sign-in.ts';

/**
 * A page opened from an emailed link that signs the person in with the link's token (confirm
 * email, magic link). The token works once, so it is sent exactly once per page.
 */
export function SignInWithTokenPage({
  title,
  working,
  exchange,
  failedHint,
  afterSignIn,
}: {
  title: string;
  working: string;
  exchange: (token: string) => Promise<AuthPayload>;
  failedHint: string;
  /** Runs once signed in; a path it gives replaces the usual destination. */
  afterSignIn?: (client: GraphQLClient, params: URLSearchParams) => Promise<string | null>;
}) {
  const [params] = useSearchParams();
  const token = params.get('token');
  const session = useSession();
  const { client } = useServices();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    exchange(token)
      .then(async (payload) => {
        session.signedIn(payload);
        const instead = afterSignIn ? await afterSignIn(client, params) : null;
        navigate(instead ?? destinationAfterSignIn(payload, params.get('next'), session.workspaceId), {
          replace: true,
        });
      })
      .catch(setError);
  }, [token]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <AuthLayout title={title}>
      {!token || error ? (
        <Stack gap="md">
          {token ? (
            <ErrorAlert error={error} title="This link did not work" />
          ) : (
            <Text size="sm">This link is missing its token. Open the link from your email again.</Text>
          )}
          <Text size="sm" c="dimmed">
            {failedHint}
          </Text>
          <Button component={Link} to="/auth/login" fullWidth>
            Go to sign in
          </Button>
        </Stack>
      ) : (
        <Center py="lg" role="status" aria-live="polite">
          <Stack align="center" gap="sm">
            <Loader size="sm" aria-hidden />
            <Text size="sm">{working}</Text>
          </Stack>
        </Center>
      )}
    </AuthLayout>
  );
}
