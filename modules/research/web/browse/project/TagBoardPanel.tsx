import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Menu,
  Modal,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconDots, IconGitMerge, IconPlus, IconTags } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { q, type Project, type Tag, type TagBoard, type TagGroup } from '../api.ts';
import { errorLine } from '../ui/errors.ts';
import { useAction, useCan, useLoad } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, SectionLoader, notifyDone, notifyError } from '../ui/layout.tsx';

const BOARD_TITLE_MAX = 50;
const TAG_TITLE_MAX = 200;

/** /projects/{projectId}/tags: the project's tag boards with their groups and tags (create, rename, merge). */
export function TagBoardPanel({ project, boardId }: { project: Project; boardId?: string }) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const boards = useLoad<{ tagBoards: TagBoard[] }>(q.tagBoards, { projectId: project.id });
  const editable = project.myAccess.canEdit && can('tags:create');
  const [title, setTitle] = useState('');
  const create = useAction((t: string) => graphql(q.createTagBoard, { input: { projectId: project.id, title: t } }));

  if (boards.error && !boards.data)
    return (
      <ErrorNote error={boards.error} title="The tag boards could not be loaded" onRetry={() => void boards.reload()} />
    );
  if (!boards.data) return <SectionLoader label="Loading tags…" />;
  const list = boardId ? boards.data.tagBoards.filter((b) => b.id === boardId) : boards.data.tagBoards;

  return (
    <Stack gap="lg">
      {list.length === 0 && (
        <EmptyState icon={<IconTags size={24} />} title={boardId ? 'This tag board was not found' : 'No tag board yet'}>
          {boardId
            ? 'It may have been deleted.'
            : 'A tag board holds the tags of this project, sorted into groups (e.g. “Pain points”, “Requests”).'}
        </EmptyState>
      )}
      {list.map((b) => (
        <BoardCard
          key={b.id}
          board={b}
          editable={editable}
          canManage={can('tags:manage') && project.myAccess.canEdit}
          onChanged={() => void boards.reload()}
        />
      ))}
      {editable && !boardId && (
        <Paper withBorder p="md">
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              if (await create.run(title.trim())) {
                notifyDone(`The tag board ${title.trim()} was created.`);
                setTitle('');
                void boards.reload();
              }
            }}
          >
            <Group align="flex-end" gap="sm">
              <TextInput
                label="New tag board"
                placeholder="e.g. Interview tags"
                value={title}
                onChange={(e) => setTitle(e.currentTarget.value)}
                error={
                  title.trim().length > BOARD_TITLE_MAX
                    ? `At most ${BOARD_TITLE_MAX} characters.`
                    : create.error
                      ? errorLine(create.error)
                      : null
                }
                style={{ flex: 1 }}
              />
              <Button
                type="submit"
                loading={create.busy}
                disabled={!title.trim() || title.trim().length > BOARD_TITLE_MAX}
              >
                Create tag board
              </Button>
            </Group>
          </form>
        </Paper>
      )}
    </Stack>
  );
}

function BoardCard({
  board,
  editable,
  canManage,
  onChanged,
}: {
  board: TagBoard;
  editable: boolean;
  canManage: boolean;
  onChanged(): void;
}) {
  const { graphql } = useFieldbook();
  const [merging, setMerging] = useState(false);
  const [groupTitle, setGroupTitle] = useState('');
  const addGroup = useAction((t: string) => graphql(q.createTagGroup, { input: { boardId: board.id, title: t } }));
  const allTags = [...board.groups.flatMap((g) => g.tags), ...board.ungroupedTags];
  const [renamingBoard, setRenamingBoard] = useState<RenameTarget | null>(null);
  const act = useTagAction(onChanged);

  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" mb="md">
        <div>
          <Title order={2} fz="lg">
            {board.title}
          </Title>
          <Text size="sm" c="dimmed">
            {allTags.length === 1 ? '1 tag' : `${allTags.length} tags`} in{' '}
            {board.groups.length === 1 ? '1 group' : `${board.groups.length} groups`}
          </Text>
        </div>
        <Group gap="xs">
          {canManage && allTags.length > 1 && (
            <Button
              variant="default"
              leftSection={<IconGitMerge size={16} aria-hidden />}
              onClick={() => setMerging(true)}
            >
              Merge tags
            </Button>
          )}
          {editable && (
            <Menu position="bottom-end" shadow="md">
              <Menu.Target>
                <ActionIcon variant="default" size="lg" aria-label={`Actions for board ${board.title}`}>
                  <IconDots size={16} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setRenamingBoard({ kind: 'board', id: board.id, title: board.title })}>
                  Rename board
                </Menu.Item>
                {canManage && (
                  <Menu.Item
                    color="red"
                    onClick={() =>
                      void act(
                        q.deleteTagBoard,
                        { id: board.id },
                        `The board “${board.title}” was deleted with its groups and tags.`,
                        'The board was not deleted',
                      )
                    }
                  >
                    Delete board
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <Stack gap="md">
        {board.groups.map((g) => (
          <GroupSection
            key={g.id}
            boardId={board.id}
            group={g}
            groups={board.groups}
            editable={editable}
            canManage={canManage}
            onChanged={onChanged}
          />
        ))}
        <GroupSection
          boardId={board.id}
          group={null}
          groups={board.groups}
          tags={board.ungroupedTags}
          editable={editable}
          canManage={canManage}
          onChanged={onChanged}
        />
        {editable && (
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              if (await addGroup.run(groupTitle.trim())) {
                setGroupTitle('');
                onChanged();
              }
            }}
          >
            <Group gap="sm" align="flex-start">
              <TextInput
                aria-label={`New group on ${board.title}`}
                placeholder="New group name"
                value={groupTitle}
                onChange={(e) => setGroupTitle(e.currentTarget.value)}
                error={
                  groupTitle.trim().length > BOARD_TITLE_MAX
                    ? `At most ${BOARD_TITLE_MAX} characters.`
                    : addGroup.error
                      ? errorLine(addGroup.error)
                      : null
                }
              />
              <Button
                type="submit"
                variant="default"
                leftSection={<IconPlus size={16} aria-hidden />}
                loading={addGroup.busy}
                disabled={!groupTitle.trim()}
              >
                Add group
              </Button>
            </Group>
          </form>
        )}
      </Stack>
      <MergeDialog opened={merging} onClose={() => setMerging(false)} tags={allTags} onMerged={onChanged} />
      <RenameDialog target={renamingBoard} onClose={() => setRenamingBoard(null)} onDone={onChanged} />
    </Paper>
  );
}

function GroupSection({
  boardId,
  group,
  groups,
  tags,
  editable,
  canManage,
  onChanged,
}: {
  boardId: string;
  group: TagGroup | null;
  groups: TagGroup[];
  tags?: Tag[];
  editable: boolean;
  canManage: boolean;
  onChanged(): void;
}) {
  const { graphql } = useFieldbook();
  const [title, setTitle] = useState('');
  const [renaming, setRenaming] = useState<RenameTarget | null>(null);
  const act = useTagAction(onChanged);
  const groupIndex = group ? groups.findIndex((g) => g.id === group.id) : -1;
  const add = useAction((t: string) =>
    graphql(q.createTag, { input: { boardId, groupId: group?.id ?? null, title: t } }),
  );
  const list = group ? group.tags : (tags ?? []);
  const name = group ? group.title : 'Ungrouped';
  if (!group && !list.length && !editable) return null;

  return (
    <section aria-label={name}>
      <Group gap={8} mb={6}>
        {group && (
          <span
            aria-hidden
            style={{
              width: 10,
              height: 10,
              borderRadius: 99,
              background: group.color ?? '#adb5bd',
              display: 'inline-block',
            }}
          />
        )}
        <Text fw={600} size="sm">
          {name}
        </Text>
        {group && editable && (
          <Menu position="bottom-start" shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Actions for group ${group.title}`}>
                <IconDots size={14} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setRenaming({ kind: 'group', id: group.id, title: group.title })}>
                Rename group
              </Menu.Item>
              {groupIndex > 0 && (
                <Menu.Item
                  onClick={() =>
                    void act(
                      q.moveTagGroup,
                      {
                        input: {
                          id: group.id,
                          previousId: groups[groupIndex - 2]?.id ?? null,
                          nextId: groups[groupIndex - 1]!.id,
                        },
                      },
                      null,
                      'The group was not moved',
                    )
                  }
                >
                  Move up
                </Menu.Item>
              )}
              {groupIndex < groups.length - 1 && (
                <Menu.Item
                  onClick={() =>
                    void act(
                      q.moveTagGroup,
                      {
                        input: {
                          id: group.id,
                          previousId: groups[groupIndex + 1]!.id,
                          nextId: groups[groupIndex + 2]?.id ?? null,
                        },
                      },
                      null,
                      'The group was not moved',
                    )
                  }
                >
                  Move down
                </Menu.Item>
              )}
              {canManage && (
                <Menu.Item
                  color="red"
                  onClick={() =>
                    void act(
                      q.deleteTagGroup,
                      { id: group.id },
                      `The group “${group.title}” was deleted.`,
                      'The group was not deleted',
                    )
                  }
                >
                  Delete group
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Group gap={6}>
        {list.map((t) => (
          <Group
            key={t.id}
            gap={0}
            wrap="nowrap"
            style={{ border: '1px solid #dee2e6', borderRadius: 999, paddingLeft: 10, background: '#fff' }}
          >
            <span aria-hidden style={{ width: 8, height: 8, borderRadius: 99, background: t.color, marginRight: 6 }} />
            <Anchor component={Link} to={`/tags/${t.id}`} size="sm" c="dark" py={2}>
              {t.title}
            </Anchor>
            <Text size="xs" c="dimmed" ml={6} mr={editable ? 0 : 10} aria-label={`${t.highlightCount} highlights`}>
              {t.highlightCount}
            </Text>
            {editable && (
              <Menu position="bottom-end" shadow="md">
                <Menu.Target>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    radius="xl"
                    aria-label={`Actions for tag ${t.title}`}
                    mx={2}
                  >
                    <IconDots size={14} aria-hidden />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setRenaming({ kind: 'tag', id: t.id, title: t.title })}>Rename</Menu.Item>
                  <Menu.Item component={Link} to={`/tags/${t.id}`}>
                    Open highlights
                  </Menu.Item>
                  {[
                    ...groups
                      .filter((g) => g.id !== group?.id)
                      .map((g) => ({ id: g.id as string | null, title: g.title })),
                    ...(group ? [{ id: null, title: 'Ungrouped' }] : []),
                  ].map((target) => (
                    <Menu.Item
                      key={target.id ?? 'none'}
                      onClick={() =>
                        void act(q.moveTag, { input: { id: t.id, groupId: target.id } }, null, 'The tag was not moved')
                      }
                    >
                      Move to {target.title}
                    </Menu.Item>
                  ))}
                  {canManage && (
                    <Menu.Item
                      color="red"
                      onClick={() =>
                        void act(
                          q.deleteTag,
                          { id: t.id },
                          `The tag “${t.title}” was deleted; its highlights stay.`,
                          'The tag was not deleted',
                        )
                      }
                    >
                      Delete tag
                    </Menu.Item>
                  )}
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        ))}
        {!list.length && (
          <Text size="sm" c="dimmed">
            No tags yet.
          </Text>
        )}
      </Group>
      {editable && (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (await add.run(title.trim())) {
              setTitle('');
              onChanged();
            }
          }}
        >
          <Group gap="xs" mt={8} align="flex-start">
            <TextInput
              size="xs"
              aria-label={`New tag in ${name}`}
              placeholder="Add a tag"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              error={
                title.trim().length > TAG_TITLE_MAX
                  ? `At most ${TAG_TITLE_MAX} characters.`
                  : add.error
                    ? errorLine(add.error)
                    : null
              }
            />
            <Button size="xs" type="submit" variant="light" loading={add.busy} disabled={!title.trim()}>
              Add tag
            </Button>
          </Group>
        </form>
      )}
      <RenameDialog target={renaming} onClose={() => setRenaming(null)} onDone={onChanged} />
    </section>
  );
}

type RenameTarget = { kind: 'tag' | 'group' | 'board'; id: string; title: string };

/** Runs a tag, group or board change, says so when asked, and reloads the boards. */
function useTagAction(onChanged: () => void) {
  const { graphql } = useFieldbook();
  return async (query: string, variables: Record<string, unknown>, done: string | null, failure: string) => {
    try {
      await graphql(query, variables);
      if (done) notifyDone(done);
      onChanged();
    } catch (err) {
      notifyError(err, failure);
    }
  };
}

function RenameDialog({ target, onClose, onDone }: { target: RenameTarget | null; onClose(): void; onDone(): void }) {
  const { graphql } = useFieldbook();
  const [title, setTitle] = useState('');
  const [shownFor, setShownFor] = useState<string | null>(null);
  if (target && shownFor !== target.id) {
    setShownFor(target.id);
    setTitle(target.title);
  }
  const save = useAction((t: string) =>
    graphql(target?.kind === 'board' ? q.updateTagBoard : target?.kind === 'group' ? q.updateTagGroup : q.updateTag, {
      input: { id: target!.id, title: t },
    }),
  );
  const max = target?.kind === 'tag' ? TAG_TITLE_MAX : BOARD_TITLE_MAX;
  return (
    <Modal
      opened={Boolean(target)}
      onClose={onClose}
      title={target?.kind === 'board' ? 'Rename board' : target?.kind === 'group' ? 'Rename group' : 'Rename tag'}
    >
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (await save.run(title.trim())) {
            notifyDone(`Renamed to ${title.trim()}.`);
            setShownFor(null);
            onClose();
            onDone();
          }
        }}
      >
        <Stack>
          <TextInput
            label="Name"
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            data-autofocus
            error={title.trim().length > max ? `At most ${max} characters.` : null}
          />
          <ErrorNote error={save.error} title="It was not renamed" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.busy} disabled={!title.trim() || title.trim().length > max}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function MergeDialog({
  opened,
  onClose,
  tags,
  onMerged,
}: {
  opened: boolean;
  onClose(): void;
  tags: Tag[];
  onMerged(): void;
}) {
  const { graphql } = useFieldbook();
  const [sources, setSources] = useState<string[]>([]);
  const [target, setTarget] = useState<string | null>(null);
  const merge = useAction(() => graphql(q.mergeTags, { sourceIds: sources, targetId: target }));
  const options = tags.map((t) => ({ value: t.id, label: `${t.title} (${t.highlightCount})` }));
  return (
    <Modal opened={opened} onClose={onClose} title="Merge tags">
      <Stack>
        <Text size="sm" c="dimmed">
          Every highlight tagged with the tags you merge gets the target tag instead; the merged tags are deleted.
        </Text>
        <MultiSelect
          label="Tags to merge"
          data={options.filter((o) => o.value !== target)}
          value={sources}
          onChange={setSources}
          searchable
        />
        <Select
          label="Into"
          data={options.filter((o) => !sources.includes(o.value))}
          value={target}
          onChange={setTarget}
          searchable
        />
        <ErrorNote error={merge.error} title="The tags were not merged" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={merge.busy}
            disabled={!sources.length || !target}
            onClick={async () => {
              if (await merge.run()) {
                notifyDone('The tags were merged.');
                setSources([]);
                setTarget(null);
                onClose();
                onMerged();
              }
            }}
          >
            Merge
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
