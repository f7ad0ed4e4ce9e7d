import {
  Alert,
  Box,
  Button,
  Checkbox,
  ColorSwatch,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import {
  CREATE_TAG,
  CREATE_TAG_BOARD,
  TAG_BOARDS,
  TAG_HIGHLIGHT,
  TAG_NOTE,
  UNTAG_HIGHLIGHT,
  UNTAG_NOTE,
  type Tag,
  type TagBoard,
} from './api.ts';
import { errorMessage } from './errors.ts';

/** What the picker tags: a highlight, or a note itself. */
export type TagTarget = { highlightId: string } | { noteId: string };

/** Applies or removes tags on the target; answers the tags it has afterwards. */
async function setTags(
  host: ReturnType<typeof useFieldbook>,
  target: TagTarget,
  tagIds: string[],
  remove: boolean,
): Promise<Tag[]> {
  if ('noteId' in target) {
    const vars = { noteId: target.noteId, tagIds };
    return remove
      ? (await host.graphql<{ untagNote: Tag[] }>(UNTAG_NOTE, vars)).untagNote
      : (await host.graphql<{ tagNote: Tag[] }>(TAG_NOTE, vars)).tagNote;
  }
  const vars = { highlightId: target.highlightId, tagIds };
  return remove
    ? (await host.graphql<{ untagHighlight: Tag[] }>(UNTAG_HIGHLIGHT, vars)).untagHighlight
    : (await host.graphql<{ tagHighlight: Tag[] }>(TAG_HIGHLIGHT, vars)).tagHighlight;
}

/**
 * Picks the tags of one highlight (or of a note itself) from the project's and the workspace's tag boards, or creates
 * a tag on the project's first board (making the board when the project has none yet).
 */
export function TagPicker({
  projectId,
  applied,
  onChange,
  canEdit,
  ...rest
}: { projectId: string; applied: readonly Tag[]; onChange: (tags: Tag[]) => void; canEdit: boolean } & TagTarget) {
  const target: TagTarget = 'noteId' in rest ? { noteId: rest.noteId } : { highlightId: rest.highlightId };
  const host = useFieldbook();
  const boards = useGraphQL<{ tagBoards: TagBoard[] }>(TAG_BOARDS, { projectId });
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();
  const appliedIds = new Set(applied.map((t) => t.id));
  const q = search.trim().toLowerCase();

  const visible = useMemo(
    () =>
      (boards.data?.tagBoards ?? [])
        .map((b) => ({ ...b, tags: b.tags.filter((t) => !q || t.title.toLowerCase().includes(q)) }))
        .filter((b) => b.tags.length),
    [boards.data, q],
  );
  // A name on both the project's board and a workspace board picks the project's tag.
  const exactTag = q
    ? [...(boards.data?.tagBoards ?? [])]
        .sort((a, b) => Number(b.projectId === projectId) - Number(a.projectId === projectId))
        .flatMap((b) => b.tags)
        .find((t) => t.title.toLowerCase() === q)
    : undefined;
  const exact = Boolean(exactTag);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const toggle = (tag: Tag) =>
    run(async () => {
      onChange(await setTags(host, target, [tag.id], appliedIds.has(tag.id)));
    });

  const create = () =>
    run(async () => {
      const title = search.trim();
      let board = boards.data?.tagBoards.find((b) => b.projectId === projectId);
      if (!board) {
        board = (
          await host.graphql<{ createTagBoard: TagBoard }>(CREATE_TAG_BOARD, { input: { projectId, title: 'Tags' } })
        ).createTagBoard;
      }
      const tag = (await host.graphql<{ createTag: Tag }>(CREATE_TAG, { input: { boardId: board.id, title } }))
        .createTag;
      onChange(await setTags(host, target, [tag.id], false));
      setSearch('');
      await boards.refetch();
    });

  return (
    <Stack gap="xs" w={280}>
      <TextInput
        id={searchId}
        label="Find or create a tag"
        placeholder="Tag name"
        size="sm"
        leftSection={<IconSearch size={14} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || !q || !canEdit || busy) return;
          e.preventDefault();
          // Enter applies the tag whose name was typed (or the only one left by the filter), and
          // creates a tag only when no existing one matches.
          const match =
            exactTag ?? (visible.length === 1 && visible[0]!.tags.length === 1 ? visible[0]!.tags[0]! : undefined);
          if (match) {
            if (!appliedIds.has(match.id)) void toggle(match).then(() => setSearch(''));
            else setSearch('');
          } else if (!exact) void create();
        }}
        maxLength={200}
        data-autofocus
      />
      {boards.loading && !boards.data ? (
        <Group justify="center" py="sm">
          <Loader size="sm" aria-label="Loading tags" />
        </Group>
      ) : boards.error ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(boards.error)}
        </Alert>
      ) : (
        <ScrollArea.Autosize mah={220} type="auto">
          <Stack gap={6}>
            {visible.map((b) => (
              <Box key={b.id}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
                  {b.title}
                  {b.projectId ? '' : ' · workspace'}
                </Text>
                <Stack gap={4}>
                  {b.tags.map((t) => (
                    <Checkbox
                      key={t.id}
                      size="sm"
                      disabled={busy || !canEdit}
                      checked={appliedIds.has(t.id)}
                      onChange={() => void toggle(t)}
                      label={
                        <Group gap={6} wrap="nowrap">
                          <ColorSwatch color={t.color} size={10} aria-hidden />
                          <Text size="sm" truncate>
                            {t.title}
                          </Text>
                        </Group>
                      }
                    />
                  ))}
                </Stack>
              </Box>
            ))}
            {!visible.length && !q && (
              <Text size="sm" c="dimmed">
                No tags yet. Type a name to create the first one.
              </Text>
            )}
          </Stack>
        </ScrollArea.Autosize>
      )}
      {q && !exact && canEdit && (
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => void create()}
          loading={busy}
          justify="flex-start"
        >
          Create tag “{search.trim()}”
        </Button>
      )}
      {error && (
        <Text size="sm" c="red.8" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
