import { ActionIcon, Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconCheck, IconCopy, IconShare } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';

interface Link {
  id: string;
  url: string;
  createdAt: string;
}

const LINK = 'id url createdAt';
const LINKS = `query ChannelShareLinks($type: ChannelShareObjectType!, $id: ID!) { channelShareLinks(objectType: $type, objectId: $id) { ${LINK} } }`;
const CREATE = `mutation CreateChannelShareLink($type: ChannelShareObjectType!, $id: ID!) { createChannelShareLink(objectType: $type, objectId: $id) { ${LINK} } }`;
const REVOKE = `mutation RevokeChannelShareLink($id: ID!) { revokeChannelShareLink(id: $id) { id } }`;

/**
 * Share on a channel or a dataset: its public links (anyone with one reads the feedback, never
 * who gave it), a new one, and ending one. Shown to those who may change access (Contributor and above).
 */
export function ShareButton({
  objectType,
  objectId,
  name,
  compact = false,
}: {
  objectType: 'channel' | 'dataset';
  objectId: string;
  name: string;
  compact?: boolean;
}) {
  const host = useFieldbook();
  const [open, setOpen] = useState(false);
  const [links, setLinks] = useState<Link[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const what = objectType === 'channel' ? 'channel' : 'dataset';
  const load = useCallback(async () => {
    try {
      setLinks(
        (await host.graphql<{ channelShareLinks: Link[] }>(LINKS, { type: objectType, id: objectId }))
          .channelShareLinks,
      );
    } catch (e) {
      setError((e as Error).message);
    }
  }, [host, objectType, objectId]);
  useEffect(() => {
    if (open) void load();
  }, [open, load]);
  if (!host.permissions.includes('acl:write')) return null;

  async function act(fn: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await fn();
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {compact ? (
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconShare size={14} aria-hidden />}
          onClick={() => setOpen(true)}
          aria-label={`Share the dataset ${name}`}
        >
          Share
        </Button>
      ) : (
        <Button variant="default" leftSection={<IconShare size={16} aria-hidden />} onClick={() => setOpen(true)}>
          Share
        </Button>
      )}
      <Modal opened={open} onClose={() => setOpen(false)} title={`Share “${name}”`} size="lg">
        <Stack>
          <Text size="sm" c="dimmed">
            Anyone with a link can read this {what}’s feedback, without signing in: the text, date and sentiment of its
            data points, never who gave them. End a link to stop it at once.
          </Text>
          {error && <Alert color="red">{error}</Alert>}
          {links && !links.length && <Text size="sm">No public links yet.</Text>}
          {links?.map((l) => (
            <Group key={l.id} wrap="nowrap" gap="xs">
              <TextInput
                readOnly
                value={l.url}
                aria-label="Public link"
                style={{ flex: 1 }}
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton value={l.url}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy link'}>
                    <ActionIcon variant="default" size="lg" onClick={copy} aria-label="Copy link">
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
              <Button
                variant="default"
                color="red"
                disabled={busy}
                onClick={() => void act(() => host.graphql(REVOKE, { id: l.id }))}
              >
                End link
              </Button>
            </Group>
          ))}
          <Group justify="flex-end">
            <Button
              loading={busy}
              onClick={() => void act(() => host.graphql(CREATE, { type: objectType, id: objectId }))}
            >
              Create public link
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
