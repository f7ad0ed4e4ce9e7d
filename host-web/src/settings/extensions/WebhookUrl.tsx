import { Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { ops, type Plugin } from '../../api/operations.ts';
import { ErrorAlert } from '../../common/ErrorAlert.tsx';
import { useServices } from '../../session/SessionProvider.tsx';

/**
 * The installation's own webhook URL, to paste into the provider's webhook settings, with Copy and
 * Rotate. Rotating is for a URL that leaked: the old one stops at once, so the provider must be
 * given the new one. Shown on the admins-only Extensions page; the server answers it to admins only.
 */
export function WebhookUrl({ plugin, url, onRotated }: { plugin: Plugin; url: string; onRotated(): void }) {
  const { client } = useServices();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const inputId = `webhook-url-${plugin.id}`;

  async function rotate() {
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.rotatePluginWebhookKey, { pluginId: plugin.id });
      notifications.show({
        color: 'teal',
        message: `${plugin.name} has a new webhook URL. Give it to the provider; the old one no longer works.`,
      });
      setConfirming(false);
      onRotated();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap={6}>
      <TextInput
        id={inputId}
        label="Webhook URL"
        description={`Paste it into ${plugin.name}’s webhook settings at the provider. Deliveries to it are accepted only when signed.`}
        value={url}
        readOnly
        onFocus={(e) => e.currentTarget.select()}
        styles={{
          input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)' },
        }}
      />
      <Group gap="xs">
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              size="xs"
              onClick={copy}
              leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              aria-label={`${copied ? 'Copied' : 'Copy'} the webhook URL of ${plugin.name}`}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          size="xs"
          onClick={() => setConfirming(true)}
          leftSection={<IconRefresh size={14} aria-hidden />}
          aria-label={`Rotate URL of ${plugin.name}`}
        >
          Rotate URL
        </Button>
      </Group>
      <ErrorAlert error={error} />
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={<Text fw={650}>Rotate the webhook URL of {plugin.name}</Text>}
        centered
      >
        <Text size="sm">
          {plugin.name} gets a new webhook URL and the current one stops working at once: deliveries the provider sends
          there are refused until you give it the new URL.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button color="red.8" loading={busy} onClick={() => void rotate()}>
            Rotate URL
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
