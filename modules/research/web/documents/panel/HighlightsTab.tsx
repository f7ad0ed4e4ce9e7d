import { ActionIcon, Badge, Box, Button, Group, Paper, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { IconShare, IconTag, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { WrittenByAi } from '../../browse/ui/WrittenByAi.tsx';
import type { Highlight, Person, Tag } from '../api.ts';
import { formatNoteHash } from '../hash.ts';
import { HighlightPeople } from './HighlightPeople.tsx';
import { TagPicker } from '../TagPicker.tsx';
import { EmptyState } from './EmptyState.tsx';

/** The highlights of a note (or the highlights an insight cites), with their tags. */
export function HighlightsTab({
  kind,
  projectId,
  highlights,
  tags,
  canEdit,
  onTagsChange,
  onDelete,
  onFocus,
  onShare,
  fillOf,
  noteId,
  notePeople,
}: {
  kind: 'note' | 'insight';
  projectId: string;
  highlights: readonly Highlight[];
  tags: ReadonlyMap<string, Tag[]>;
  canEdit: boolean;
  onTagsChange: (highlightId: string, tags: Tag[]) => void;
  onDelete: (highlight: Highlight) => void;
  onFocus?: (highlight: Highlight) => void;
  /** Opens the public link and embed code of one highlight; absent for those who cannot share. */
  onShare?: (highlight: Highlight) => void;
  /** The colour the highlight is painted in. */
  fillOf: (highlight: Highlight) => string;
  /** A note's id and people: its highlights can say which of them they are about. */
  noteId?: string;
  notePeople?: readonly Person[];
}) {
  if (!highlights.length) {
    return (
      <EmptyState title={kind === 'note' ? 'No highlights yet' : 'No highlights cited yet'}>
        {kind === 'note'
          ? 'Select some text in the note and choose Highlight to keep what matters.'
          : 'Use “Add highlight” above the insight to cite evidence from the project’s notes.'}
      </EmptyState>
    );
  }
  return (
    <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Highlights">
      {highlights.map((h) => {
        const applied = tags.get(h.id) ?? [];
        return (
          <Paper component="li" key={h.id} withBorder radius="md" p="sm">
            <Box
              style={{ borderLeft: `4px solid ${fillOf(h)}`, paddingLeft: 10, cursor: onFocus ? 'pointer' : undefined }}
              onClick={() => onFocus?.(h)}
            >
              <Text size="sm" lineClamp={4}>
                “{h.text}”
              </Text>
              <WrittenByAi maker={h.createdBy} size="xs" />
              {kind === 'insight' && h.note && (
                <Text size="xs" c="dimmed" mt={4}>
                  From{' '}
                  <Text
                    component={Link}
                    to={`/data/${h.note.id}${formatNoteHash({ highlightId: h.id })}`}
                    size="xs"
                    c="indigo.8"
                    td="underline"
                  >
                    {h.note.title || 'Untitled note'}
                  </Text>
                </Text>
              )}
            </Box>
            <Group justify="space-between" mt="xs" gap={6} wrap="nowrap" align="flex-start">
              <Group gap={4}>
                {applied.map((t) => (
                  <Badge
                    key={t.id}
                    size="sm"
                    variant="light"
                    color="gray"
                    tt="none"
                    leftSection={
                      <span
                        aria-hidden
                        style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 8, background: t.color }}
                      />
                    }
                  >
                    {t.title}
                  </Badge>
                ))}
              </Group>
              <Group gap={2} wrap="nowrap">
                {kind === 'note' && canEdit && (
                  <Popover position="bottom-end" shadow="md" trapFocus withinPortal>
                    <Popover.Target>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        leftSection={<IconTag size={14} aria-hidden />}
                        aria-label={`Tags of highlight “${h.text.slice(0, 40)}”`}
                      >
                        Tags
                      </Button>
                    </Popover.Target>
                    <Popover.Dropdown>
                      <TagPicker
                        projectId={projectId}
                        highlightId={h.id}
                        applied={applied}
                        canEdit={canEdit}
                        onChange={(t) => onTagsChange(h.id, t)}
                      />
                    </Popover.Dropdown>
                  </Popover>
                )}
                {kind === 'note' && canEdit && noteId && (
                  <HighlightPeople
                    noteId={noteId}
                    highlightId={h.id}
                    label={h.text.slice(0, 40)}
                    people={notePeople ?? []}
                  />
                )}
                {kind === 'note' && onShare && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconShare size={14} aria-hidden />}
                    onClick={() => onShare(h)}
                    aria-label={`Share highlight “${h.text.slice(0, 40)}”`}
                  >
                    Share
                  </Button>
                )}
                {canEdit && (
                  <Tooltip label={kind === 'note' ? 'Delete highlight' : 'Remove citation'}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="sm"
                      onClick={() => onDelete(h)}
                      aria-label={`${kind === 'note' ? 'Delete highlight' : 'Remove citation'} “${h.text.slice(0, 40)}”`}
                    >
                      <IconTrash size={14} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
