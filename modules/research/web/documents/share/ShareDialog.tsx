import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconCheck, IconCode, IconCopy, IconLink, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import { CREATE_SHARE_LINK, REVOKE_SHARE_LINK, SHARE_LINKS, type ShareLink, type ShareObjectType } from '../api.ts';
import { errorMessage } from '../errors.ts';

/** The address to give out, on the public address the server is configured with. */
const linkAddress = (link: ShareLink): string => link.url;

/** The iframe snippet for an embed page, on the same public address as the link. */
export function embedCode(link: ShareLink, embedPath: (token: string) => string, title: string): string {
  const src = new URL(embedPath(link.token), link.url).toString();
  const safeTitle = title.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${src}" title="${safeTitle}" width="100%" height="220" style="border:0" loading="lazy"></iframe>`;
}

function EmbedCode({ code }: { code: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Textarea
        readOnly
        value={code}
        aria-label="Embed code"
        autosize
        minRows={2}
        maxRows={4}
        style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton value={code}>
        {({ copied, copy }) => (
          <Button
            variant={copied ? 'filled' : 'light'}
            color={copied ? 'teal' : 'indigo'}
            size="sm"
            onClick={copy}
            leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCode size={16} aria-hidden />}
          >
            {copied ? 'Copied' : 'Copy embed code'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * Makes, copies and ends public links to one note, insight or highlight. Anyone with a link sees
 * the object without signing in, until the link is revoked or the workspace turns public links off.
 * With embedPath, each link also gets an iframe snippet for putting the object on another site.
 */
export function ShareDialog({
  opened,
  onClose,
  objectType,
  objectId,
  what,
  embedPath,
  scope,
}: {
  opened: boolean;
  onClose: () => void;
  objectType: ShareObjectType;
  objectId: string;
  what: string;
  embedPath?: (token: string) => string;
  /** What a person opening the link sees, when it is not the object alone (charts, dashboards). */
  scope?: string;
}) {
  const host = useFieldbook();
  const links = useGraphQL<{ shareLinks: ShareLink[] }>(SHARE_LINKS, { type: objectType, id: objectId });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      await links.refetch();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const live = (links.data?.shareLinks ?? []).filter((l) => l.active);
  return (
    <Modal opened={opened} onClose={onClose} title={`Share this ${what}`} size="lg">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconWorld size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm">
            {scope ?? (
              <>
                Anyone with a public link can read this {what} without signing in. They see only this {what}
                {what === 'insight'
                  ? ' and the highlights it cites'
                  : what === 'note'
                    ? ' and its highlights'
                    : ' and the title of its note'}
                , nothing else of the workspace.
              </>
            )}
          </Text>
        </Group>
        {links.loading && !links.data ? (
          <Loader size="sm" aria-label="Loading links" />
        ) : links.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(links.error)}
          </Alert>
        ) : (
          <Stack gap="xs">
            {live.map((l) => {
              const address = linkAddress(l);
              return (
                <Stack key={l.id} gap={6}>
                  <Group gap="xs" wrap="nowrap">
                    <TextInput
                      readOnly
                      value={address}
                      aria-label="Public link"
                      style={{ flex: 1 }}
                      onFocus={(e) => e.currentTarget.select()}
                    />
                    <CopyButton value={address}>
                      {({ copied, copy }) => (
                        <Tooltip label={copied ? 'Copied' : 'Copy link'}>
                          <ActionIcon
                            variant={copied ? 'filled' : 'light'}
                            color={copied ? 'teal' : 'indigo'}
                            size="lg"
                            onClick={copy}
                            aria-label={copied ? 'Link copied' : 'Copy link'}
                          >
                            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </CopyButton>
                    <Button
                      variant="subtle"
                      color="red"
                      size="sm"
                      disabled={busy}
                      onClick={() => void act(() => host.graphql(REVOKE_SHARE_LINK, { id: l.id }))}
                    >
                      Revoke
                    </Button>
                  </Group>
                  {embedPath && <EmbedCode code={embedCode(l, embedPath, `A ${what} shared from Fieldbook`)} />}
                </Stack>
              );
            })}
            {!live.length && (
              <Text size="sm" c="dimmed">
                There is no public link to this {what} yet.
              </Text>
            )}
          </Stack>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert" title="The link could not be made">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
          <Button
            leftSection={<IconLink size={16} aria-hidden />}
            loading={busy}
            onClick={() => void act(() => host.graphql(CREATE_SHARE_LINK, { type: objectType, id: objectId }))}
          >
            {live.length ? 'Create another link' : 'Create public link'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
