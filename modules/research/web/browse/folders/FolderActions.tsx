import { ActionIcon, Button, Group, Menu, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconDots, IconFolderSymlink, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { q, type FolderSummary } from '../api.ts';
import { useCan, useLoad } from '../ui/hooks.ts';
import { notifyDone, notifyError } from '../ui/layout.tsx';

const RENAME = `mutation BrowseRenameFolder($id: ID!, $title: String!) { renameFolder(id: $id, title: $title) { id title } }`;
const MOVE = `mutation BrowseMoveFolder($id: ID!, $parentId: ID) { moveFolder(id: $id, parentId: $parentId) { id parentId } }`;
const DELETE = `mutation BrowseDeleteFolder($id: ID!) { deleteFolder(id: $id) }`;
const TITLE_MAX = 200;

/** The folder page's menu: rename, move under another folder (or to the top), move to the trash. */
export function FolderActions({
  folder,
  onChanged,
}: {
  folder: { id: string; title: string; parentId: string | null };
  onChanged(): void;
}) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'rename' | 'move' | null>(null);
  const [title, setTitle] = useState(folder.title);
  const [parentId, setParentId] = useState(folder.parentId ?? '');
  const [busy, setBusy] = useState(false);
  const folders = useLoad<{ folders: FolderSummary[] }>(q.folders, {}, { skip: dialog !== 'move' });
  if (!can('categories:update')) return null;

  const run = async (fn: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await fn();
      setDialog(null);
    } catch (err) {
      notifyError(err, failure);
    } finally {
      setBusy(false);
    }
  };
  // A folder cannot go inside itself or one of its own folders.
  const own = (f: FolderSummary) =>
    f.id === folder.id ||
    (folders.data?.folders ?? []).some((x) => x.id === folder.id && f.path.startsWith(`${x.path}/`));
  const tooLong = title.trim().length > TITLE_MAX;

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="Folder actions">
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconPencil size={14} aria-hidden />}
            onClick={() => (setTitle(folder.title), setDialog('rename'))}
          >
            Rename
          </Menu.Item>
          <Menu.Item
            leftSection={<IconFolderSymlink size={14} aria-hidden />}
            onClick={() => (setParentId(folder.parentId ?? ''), setDialog('move'))}
          >
            Move to…
          </Menu.Item>
          {can('categories:manage') && (
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() =>
                void run(async () => {
                  await graphql(DELETE, { id: folder.id });
                  notifyDone(`“${folder.title}” moved to the trash with its folders.`);
                  navigate('/projects/folders');
                }, 'The folder was not moved to the trash')
              }
            >
              Move to trash
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={dialog === 'rename'} onClose={() => setDialog(null)} title="Rename folder">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await graphql(RENAME, { id: folder.id, title: title.trim() });
              onChanged();
            }, 'The folder was not renamed');
          }}
        >
          <Stack>
            <TextInput
              label="Folder name"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              error={tooLong ? `A folder name can be at most ${TITLE_MAX} characters long.` : null}
              data-autofocus
              required
            />
            <Group justify="flex-end">
              <Button type="submit" loading={busy} disabled={!title.trim() || tooLong}>
                Rename
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal opened={dialog === 'move'} onClose={() => setDialog(null)} title={`Move “${folder.title}”`}>
        <Stack>
          <NativeSelect
            label="Put it in"
            value={parentId}
            onChange={(e) => setParentId(e.currentTarget.value)}
            data={[
              { value: '', label: 'Top level (no folder)' },
              ...(folders.data?.folders ?? []).filter((f) => !own(f)).map((f) => ({ value: f.id, label: f.path })),
            ]}
          />
          <Text size="xs" c="dimmed">
            Its projects and folders move with it.
          </Text>
          <Group justify="flex-end">
            <Button
              loading={busy}
              onClick={() =>
                void run(
                  async () => (await graphql(MOVE, { id: folder.id, parentId: parentId || null }), onChanged()),
                  'The folder was not moved',
                )
              }
            >
              Move
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
