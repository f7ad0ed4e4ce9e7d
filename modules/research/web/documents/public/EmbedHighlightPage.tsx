import { Anchor, Box, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconLinkOff, IconQuote } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { fetchSharedObject, SharedObjectError, type SharedObject } from './shared-object.ts';

interface EmbeddedHighlight {
  text: string;
  color: string | null;
  noteTitle: string | null;
}

const NOT_SHARED = 'This highlight is not shared';

/**
 * The highlight a share shows: the highlight itself when the link is to it, or one of the
 * note's highlights when the link is to its note. Any other link does not open this highlight.
 */
function highlightOf(shared: SharedObject, highlightId: string): EmbeddedHighlight | null {
  const o = shared.object;
  if (o.__typename === 'PublicHighlight')
    return o.id === highlightId ? { text: o.text, color: o.color, noteTitle: o.noteTitle } : null;
  if (o.__typename === 'PublicNote') {
    const h = o.highlights.find((x) => x.id === highlightId);
    return h ? { text: h.text, color: h.color, noteTitle: o.title || h.noteTitle } : null;
  }
  return null;
}

type State =
  | { status: 'loading' }
  | { status: 'shown'; highlight: EmbeddedHighlight }
  | { status: 'notShared' }
  | { status: 'failed'; message: string };

function Footer({ token }: { token: string | null }) {
  return (
    <Group
      component="footer"
      justify="space-between"
      gap="xs"
      mt="sm"
      pt="xs"
      style={{ borderTop: '1px solid #e9ecef' }}
    >
      <Group gap={6} wrap="nowrap">
        <svg width={16} height={16} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
          <rect width="32" height="32" rx="8" fill="#3b5bdb" />
          <path d="M10 8h12v3.2h-8.4v3.6h7.2V18h-7.2v6H10z" fill="#fff" />
        </svg>
        <Text size="xs" c="dimmed">
          Shared from Fieldbook
        </Text>
      </Group>
      {token && (
        <Anchor href={`/p/${token}`} target="_blank" rel="noopener" size="xs" c="indigo.8">
          View in Fieldbook
        </Anchor>
      )}
    </Group>
  );
}

/** `/embed/highlights/:highlightId?token=…`: one shared highlight, without the app around it, for an iframe. */
export function EmbedHighlightPage() {
  const { highlightId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ status: 'loading' });

  const load = useCallback(
    (signal?: AbortSignal) => {
      if (!/^[A-Za-z0-9]{12}$/.test(token)) {
        setState({ status: 'notShared' });
        return;
      }
      setState({ status: 'loading' });
      fetchSharedObject(token, signal).then(
        (shared) => {
          const highlight = highlightOf(shared, highlightId);
          setState(highlight ? { status: 'shown', highlight } : { status: 'notShared' });
        },
        (err: unknown) => {
          if (signal?.aborted) return;
          if (err instanceof SharedObjectError && err.gone) setState({ status: 'notShared' });
          else
            setState({
              status: 'failed',
              message:
                err instanceof SharedObjectError
                  ? err.message
                  : 'Something went wrong on our side. Please try again in a moment.',
            });
        },
      );
    },
    [token, highlightId],
  );
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal);
    return () => abort.abort();
  }, [load]);
  useEffect(() => {
    document.title =
      state.status === 'shown'
        ? 'Highlight · Fieldbook'
        : state.status === 'notShared'
          ? `${NOT_SHARED} · Fieldbook`
          : 'Fieldbook';
  }, [state.status]);

  return (
    <Box
      component="main"
      p="md"
      bg="white"
      mih="100vh"
      style={{ display: 'flex', flexDirection: 'column', boxSizing: 'border-box' }}
    >
      <Box style={{ flex: 1 }}>
        {state.status === 'loading' ? (
          <Center py="md" role="status" aria-live="polite">
            <Loader size="sm" aria-label="Loading the highlight" />
          </Center>
        ) : state.status === 'shown' ? (
          <Box
            component="figure"
            m={0}
            style={{ borderLeft: `4px solid ${state.highlight.color ?? '#fab005'}`, paddingLeft: 12 }}
          >
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <IconQuote size={18} aria-hidden style={{ flexShrink: 0, color: '#5c6ac4', marginTop: 3 }} />
              <Box>
                <Text component="blockquote" m={0} size="md" lh={1.55}>
                  {state.highlight.text}
                </Text>
                <Text component="figcaption" size="xs" c="dimmed" mt={6}>
                  From {state.highlight.noteTitle || 'Untitled note'}
                </Text>
              </Box>
            </Group>
          </Box>
        ) : state.status === 'notShared' ? (
          <Group gap="sm" wrap="nowrap" align="flex-start" role="alert">
            <IconLinkOff size={20} aria-hidden style={{ flexShrink: 0, color: '#868e96', marginTop: 2 }} />
            <Stack gap={2}>
              <Text fw={600} size="sm">
                {NOT_SHARED}
              </Text>
              <Text size="xs" c="dimmed">
                Its public link was ended, or the embed code is incomplete. Ask whoever shared it for a new embed code.
              </Text>
            </Stack>
          </Group>
        ) : (
          <Stack gap="xs" align="flex-start" role="alert">
            <Text size="sm">{state.message}</Text>
            <Button size="xs" variant="light" onClick={() => load()}>
              Try again
            </Button>
          </Stack>
        )}
      </Box>
      <Footer token={state.status === 'shown' ? token : null} />
    </Box>
  );
}
