import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { Q, type ChannelSummary } from './api.ts';

/** Renames a channel and changes its description (contributor and above, as the server checks). */
export function EditChannelModal({
  channel,
  onClose,
  onSaved,
}: {
  channel: ChannelSummary;
  onClose(): void;
  onSaved(next: ChannelSummary): void;
}) {
  const host = useFieldbook();
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    try {
      const { updateChannel } = await host.graphql<{ updateChannel: ChannelSummary }>(Q.updateChannel, {
        id: channel.id,
        input: { name, description },
      });
      onSaved(updateChannel);
    } catch (e) {
      // The server names the limit (a name of at most 200 characters, a description of at most 2,000).
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="Edit channel">
      <Stack>
        <TextInput
          label="Name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          data-autofocus
          maxLength={200}
          required
        />
        <Textarea
          label="Description"
          value={description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
            setError(null);
          }}
          autosize
          minRows={2}
          maxLength={2000}
          error={error}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={saving}>
            Save channel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
