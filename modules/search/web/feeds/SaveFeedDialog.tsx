import { Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../ui/frame.tsx';

/** Saved feed titles are at most 200 characters (000 §9). */
export const FEED_TITLE_MAX = 200;

export interface SaveFeedValues {
  title: string;
  shared: boolean;
}

/** Names a search to keep it as a feed, and says whether the workspace sees it. */
export function SaveFeedDialog({
  opened,
  onClose,
  onSave,
  canShare,
  initial,
  heading = 'Save as feed',
}: {
  opened: boolean;
  onClose(): void;
  onSave(values: SaveFeedValues): Promise<void>;
  /** A shared feed needs a filter with a value (000 §5). */
  canShare: boolean;
  initial?: Partial<SaveFeedValues>;
  heading?: string;
}) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [shared, setShared] = useState(initial?.shared ?? false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const clean = title.trim();
    if (!clean) return setProblem('Give the feed a title.');
    if ([...clean].length > FEED_TITLE_MAX)
      return setProblem(`A saved feed title can be at most ${FEED_TITLE_MAX} characters long.`);
    setBusy(true);
    setProblem(null);
    try {
      await onSave({ title: clean, shared: shared && canShare });
    } catch (err) {
      setProblem(describeError(err).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={heading} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label="Title"
            value={title}
            onChange={(e) => {
              setTitle(e.currentTarget.value);
              setProblem(null);
            }}
            error={problem}
            data-autofocus
            description={`${[...title.trim()].length}/${FEED_TITLE_MAX} characters`}
          />
          <Switch
            label="Share with the workspace"
            description={
              canShare
                ? 'Everyone in the workspace can open it; each person sees only the results they have access to.'
                : 'Add a condition with a value to the filter to share this feed.'
            }
            checked={shared && canShare}
            disabled={!canShare}
            onChange={(e) => setShared(e.currentTarget.checked)}
          />
          <Text size="xs" c="dimmed">
            The feed keeps the search text, the filter and the tab; it shows what matches each time it is opened.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save feed
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
