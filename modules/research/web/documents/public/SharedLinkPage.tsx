import { Anchor, Center, Container, Loader, Text } from '@mantine/core';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { SharedObjectError } from './shared-object.ts';
import { DeadLink, PublicFrame } from './PublicFrame.tsx';

export const DEAD_LINK = 'This link does not exist or is no longer shared. Ask whoever sent it for a new one.';

/**
 * A public page opened by a share token (notes, insights, projects, charts, dashboards): the
 * token checked before any request, the object loaded signed out, a dead link or a retry when it
 * cannot be, and the line saying when it was shared. `load` answers null for a token that opens
 * something this page does not draw (it then reads as a dead link); keep it stable (module level).
 */
export function SharedLinkPage<T extends { sharedAt: string }>(props: {
  shareToken: string;
  load: (token: string, signal?: AbortSignal) => Promise<T | null>;
  width: (shared: T) => number;
  children: (shared: T) => ReactNode;
}) {
  const { shareToken, load: fetchShared } = props;
  const [state, setState] = useState<{ shared: T | null; error: SharedObjectError | null }>({
    shared: null,
    error: null,
  });
  const load = useCallback(
    (signal?: AbortSignal) => {
      setState({ shared: null, error: null });
      if (!/^[A-Za-z0-9]{12}$/.test(shareToken))
        return setState({ shared: null, error: new SharedObjectError(DEAD_LINK, true) });
      fetchShared(shareToken, signal).then(
        (shared) =>
          setState(shared ? { shared, error: null } : { shared: null, error: new SharedObjectError(DEAD_LINK, true) }),
        (err: unknown) => {
          if (signal?.aborted) return;
          setState({
            shared: null,
            error:
              err instanceof SharedObjectError
                ? err
                : new SharedObjectError('Something went wrong on our side. Please try again in a moment.', false),
          });
        },
      );
    },
    [shareToken, fetchShared],
  );
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal);
    return () => abort.abort();
  }, [load]);

  const { shared, error } = state;
  // Once the object is in, the page that draws it names the tab.
  useEffect(() => {
    if (!shared) document.title = `${error ? 'Link not available' : 'Shared'} · Fieldbook`;
  }, [shared, error]);
  return (
    <PublicFrame>
      {error ? (
        <DeadLink error={error} onRetry={() => load()} />
      ) : !shared ? (
        <Center py="xl" role="status" aria-live="polite">
          <Loader size="sm" aria-label="Loading the shared page" />
        </Center>
      ) : (
        <Container size={props.width(shared)} px={0}>
          {props.children(shared)}
          <Text size="xs" c="dimmed" ta="center" mt="lg">
            Shared {new Date(shared.sharedAt).toLocaleDateString(undefined, { dateStyle: 'long' })}.{' '}
            <Anchor href="/" size="xs" underline="always">
              Sign in to Fieldbook
            </Anchor>
          </Text>
        </Container>
      )}
    </PublicFrame>
  );
}
