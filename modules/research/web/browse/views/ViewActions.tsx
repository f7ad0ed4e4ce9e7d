import { ActionIcon, Button, Group, Menu, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconArrowLeft, IconArrowRight, IconDots, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { notifyDone, notifyError } from '../ui/layout.tsx';
import type { ViewLayout, ViewObjectType } from './data.ts';

const CREATE = `mutation BrowseCreateView($projectId: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $projectId, input: $input) { id } }`;
const UPDATE = `mutation BrowseUpdateView($id: ID!, $input: UpdateProjectViewInput!) { updateProjectView(id: $id, input: $input) { id title } }`;
const MOVE = `mutation BrowseMoveView($id: ID!, $previousId: ID, $nextId: ID) { moveProjectView(id: $id, previousId: $previousId, nextId: $nextId) { id } }`;
const DELETE = `mutation BrowseDeleteView($id: ID!) { deleteProjectView(id: $id) }`;
const TITLE_MAX = 200;

export const LAYOUT_CHOICES: Array<{ value: ViewLayout; label: string }> = [
  { value: 'BOARD', label: 'Board' },
  { value: 'CANVAS', label: 'Canvas' },
  { value: 'GRID', label: 'Grid' },
  { value: 'LIST', label: 'List' },
  { value: 'TABLE', label: 'Table' },
];
const OBJECT_CHOICES: Array<{ value: ViewObjectType; label: string }> = [
  { value: 'NOTE', label: 'Notes' },
  { value: 'INSIGHT', label: 'Insights' },
  { value: 'HIGHLIGHT', label: 'Highlights' },
];

const titleProblem = (title: string) =>
  !title.trim()
    ? 'Give the view a title.'
    : title.trim().length > TITLE_MAX
      ? `A view title can be at most ${TITLE_MAX} characters long.`
      : null;

/** "Add view": a title, one of the five layouts and what it shows; opens the new view. */
export function AddViewButton({ projectId }: { projectId: string }) {
  const { graphql } = useFieldbook();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [layout, setLayout] = useState<ViewLayout>('TABLE');
  const [objectType, setObjectType] = useState<ViewObjectType>('NOTE');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const problem = titleProblem(title);
  const create = async () => {
    setTried(true);
    if (problem) return;
    setBusy(true);
    try {
      const { createProjectView } = await graphql<{ createProjectView: { id: string } }>(CREATE, {
        projectId,
        input: { title: title.trim(), layout, objectType },
      });
      setOpen(false);
      navigate(`/projects/${projectId}/v/${createProjectView.id}`);
    } catch (err) {
      notifyError(err, 'The view was not created');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() => (setTitle(''), setTried(false), setOpen(true))}
      >
        Add view
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Add a view">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Stack>
            <TextInput
              label="Title"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              error={tried ? problem : null}
              data-autofocus
              required
            />
            <NativeSelect
              label="Layout"
              data={LAYOUT_CHOICES}
              value={layout}
              onChange={(e) => setLayout(e.currentTarget.value as ViewLayout)}
            />
            <NativeSelect
              label="Shows"
              data={OBJECT_CHOICES}
              value={objectType}
              onChange={(e) => setObjectType(e.currentTarget.value as ViewObjectType)}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={busy}>
                Add view
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** A view's menu: rename, change its layout, move it along the project's views, delete it. */
export function ViewMenu({
  view,
  siblings,
  onChanged,
}: {
  view: { id: string; title: string; layout: ViewLayout; projectId: string };
  siblings: ReadonlyArray<{ id: string }>;
  onChanged(): void;
}) {
  const { graphql } = useFieldbook();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(view.title);
  const index = siblings.findIndex((s) => s.id === view.id);
  const call = async (query: string, variables: Record<string, unknown>, failure: string) => {
    try {
      await graphql(query, variables);
      return true;
    } catch (err) {
      notifyError(err, failure);
      return false;
    }
  };
  const move = async (by: -1 | 1) => {
    const [previousId, nextId] =
      by < 0
        ? [siblings[index - 2]?.id ?? null, siblings[index - 1]!.id]
        : [siblings[index + 1]!.id, siblings[index + 2]?.id ?? null];
    if (await call(MOVE, { id: view.id, previousId, nextId }, 'The view was not moved')) onChanged();
  };
  const problem = titleProblem(title);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="View actions">
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconPencil size={14} aria-hidden />}
            onClick={() => (setTitle(view.title), setRenaming(true))}
          >
            Rename
          </Menu.Item>
          <Menu.Label>Layout</Menu.Label>
          {LAYOUT_CHOICES.filter((l) => l.value !== view.layout).map((l) => (
            <Menu.Item
              key={l.value}
              onClick={() =>
                void call(UPDATE, { id: view.id, input: { layout: l.value } }, 'The layout was not changed').then(
                  (ok) => ok && onChanged(),
                )
              }
            >
              Show as {l.label.toLowerCase()}
            </Menu.Item>
          ))}
          <Menu.Divider />
          {index > 0 && (
            <Menu.Item leftSection={<IconArrowLeft size={14} aria-hidden />} onClick={() => void move(-1)}>
              Move earlier
            </Menu.Item>
          )}
          {index >= 0 && index < siblings.length - 1 && (
            <Menu.Item leftSection={<IconArrowRight size={14} aria-hidden />} onClick={() => void move(1)}>
              Move later
            </Menu.Item>
          )}
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() =>
              void call(DELETE, { id: view.id }, 'The view was not deleted').then((ok) => {
                if (!ok) return;
                notifyDone(
                  `The view “${view.title}” was deleted; its notes, insights and highlights are still in the project.`,
                );
                navigate(`/projects/${view.projectId}`);
              })
            }
          >
            Delete view
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={renaming} onClose={() => setRenaming(false)} title="Rename view">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (problem) return;
            void call(UPDATE, { id: view.id, input: { title: title.trim() } }, 'The view was not renamed').then(
              (ok) => {
                if (!ok) return;
                setRenaming(false);
                onChanged();
              },
            );
          }}
        >
          <Stack>
            <TextInput
              label="Title"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              error={problem}
              data-autofocus
              required
            />
            <Group justify="flex-end">
              <Button type="submit" disabled={Boolean(problem)}>
                Rename
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
