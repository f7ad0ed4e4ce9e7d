import {
  Alert,
  Avatar,
  Box,
  Button,
  Group,
  Loader,
  Menu,
  Paper,
  Stack,
  Text,
  Textarea,
  UnstyledButton,
  ActionIcon,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconDots } from '@tabler/icons-react';
import { useId, useMemo, useRef, useState } from 'react';
import {
  COMMENTS,
  CREATE_COMMENT,
  DELETE_COMMENT,
  MEMBERS,
  UPDATE_COMMENT,
  type Comment,
  type Member,
} from '../api.ts';
import { errorMessage } from '../errors.ts';
import { EmptyState } from './EmptyState.tsx';
import { bodyParts, fromBody, mentionQuery, toBody, type Mention } from './mentions.ts';

const COMMENT_MAX = 10_000;

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A comment box where typing @ suggests members; picked members are sent as mentions. */
function CommentBox({
  label,
  initial = '',
  submitLabel,
  onSubmit,
  onCancel,
}: {
  label: string;
  initial?: string;
  submitLabel: string;
  onSubmit: (body: string) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const members = useGraphQL<{ members: { nodes: Array<{ user: Member }> } }>(MEMBERS);
  const start = useMemo(() => fromBody(initial), [initial]);
  const [text, setText] = useState(start.text);
  const [mentions, setMentions] = useState<Mention[]>(start.mentions);
  const [query, setQuery] = useState<{ query: string; start: number } | null>(null);
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const listId = useId();

  const suggestions = useMemo(() => {
    if (!query) return [];
    const q = query.query.toLowerCase();
    return (members.data?.members.nodes ?? [])
      .map((n) => n.user)
      .filter((u) => (u.name || u.email).toLowerCase().includes(q) || u.email.toLowerCase().startsWith(q))
      .slice(0, 6);
  }, [members.data, query]);

  const pick = (u: Member) => {
    if (!query) return;
    const name = u.name || u.email;
    const caret = area.current?.selectionStart ?? text.length;
    const next = `${text.slice(0, query.start)}@${name} ${text.slice(caret)}`;
    setText(next);
    setMentions((m) => (m.some((x) => x.id === u.id) ? m : [...m, { id: u.id, name }]));
    setQuery(null);
    requestAnimationFrame(() => {
      const at = query.start + name.length + 2;
      area.current?.focus();
      area.current?.setSelectionRange(at, at);
    });
  };

  const submit = async () => {
    if (!text.trim()) return;
    setBusy(true);
    const done = await onSubmit(toBody(text.trim(), mentions));
    setBusy(false);
    if (done && !onCancel) {
      setText('');
      setMentions([]);
    }
  };

  const open = suggestions.length > 0;
  return (
    <Stack gap={6}>
      <Box pos="relative">
        <Textarea
          ref={area}
          label={label}
          placeholder="Write a comment. Type @ to mention someone."
          autosize
          minRows={2}
          maxRows={8}
          value={text}
          maxLength={COMMENT_MAX}
          role="combobox"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={open ? `${listId}-${active}` : undefined}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setQuery(mentionQuery(e.currentTarget.value, e.currentTarget.selectionStart));
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
              e.preventDefault();
              setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
            } else if (open && (e.key === 'Enter' || e.key === 'Tab')) {
              e.preventDefault();
              pick(suggestions[active]!);
            } else if (open && e.key === 'Escape') {
              setQuery(null);
            } else if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
              void submit();
            }
          }}
        />
        {open && (
          <Paper
            withBorder
            shadow="md"
            pos="absolute"
            left={0}
            right={0}
            style={{ zIndex: 10 }}
            mt={4}
            p={4}
            role="listbox"
            id={listId}
            aria-label="Members to mention"
          >
            {suggestions.map((u, i) => (
              <UnstyledButton
                key={u.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                tabIndex={-1}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(u)}
                w="100%"
                px="xs"
                py={6}
                style={{ borderRadius: 6, background: i === active ? 'var(--mantine-color-indigo-0)' : undefined }}
              >
                <Text size="sm" fw={500}>
                  {u.name || u.email}
                </Text>
                <Text size="xs" c="dimmed">
                  {u.email}
                </Text>
              </UnstyledButton>
            ))}
          </Paper>
        )}
      </Box>
      <Group justify="flex-end" gap="xs">
        {onCancel && (
          <Button variant="default" size="compact-sm" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button size="compact-sm" onClick={() => void submit()} loading={busy} disabled={!text.trim()}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}

/** Comments on a note or insight, oldest first, with @mentions of members. */
export function CommentsTab({ objectType, objectId }: { objectType: 'NOTE' | 'INSIGHT'; objectId: string }) {
  const host = useFieldbook();
  const list = useGraphQL<{ comments: { nodes: Comment[] } }>(COMMENTS, { objectType, objectId });
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const attempt = async (fn: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await fn();
      await list.refetch();
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    }
  };

  if (list.loading && !list.data) return <Loader size="sm" aria-label="Loading comments" />;
  const comments = list.data?.comments.nodes ?? [];
  return (
    <Stack gap="md">
      {list.error && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {!comments.length && !list.error && (
        <EmptyState title="No comments yet">Start the conversation below.</EmptyState>
      )}
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Comments">
        {comments.map((c) => (
          <Box component="li" key={c.id}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Avatar size={28} radius="xl" color="indigo" aria-hidden>
                {(c.authorName ?? '?').slice(0, 1).toUpperCase()}
              </Avatar>
              <Box style={{ flex: 1, minWidth: 0 }}>
                <Group justify="space-between" gap={4} wrap="nowrap">
                  <Text size="sm" fw={600} truncate>
                    {c.authorName ?? 'Former member'}{' '}
                    <Text span size="xs" c="dimmed" fw={400}>
                      {when(c.createdAt)}
                      {c.editedAt ? ' · edited' : ''}
                    </Text>
                  </Text>
                  {(c.canEdit || c.canDelete) && editing !== c.id && (
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          size="sm"
                          aria-label={`Actions for the comment by ${c.authorName ?? 'a former member'}`}
                        >
                          <IconDots size={14} aria-hidden />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {c.canEdit && <Menu.Item onClick={() => setEditing(c.id)}>Edit</Menu.Item>}
                        {c.canDelete && (
                          <Menu.Item
                            color="red"
                            onClick={() => void attempt(() => host.graphql(DELETE_COMMENT, { id: c.id }))}
                          >
                            Delete
                          </Menu.Item>
                        )}
                      </Menu.Dropdown>
                    </Menu>
                  )}
                </Group>
                {editing === c.id ? (
                  <CommentBox
                    label="Edit comment"
                    initial={c.body}
                    submitLabel="Save"
                    onCancel={() => setEditing(null)}
                    onSubmit={async (body) => {
                      const ok = await attempt(() => host.graphql(UPDATE_COMMENT, { id: c.id, input: { body } }));
                      if (ok) setEditing(null);
                      return ok;
                    }}
                  />
                ) : (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {bodyParts(c.body).map((p, i) =>
                      p.mention ? (
                        <Text span key={i} fw={600} c="indigo.8">
                          {p.text}
                        </Text>
                      ) : (
                        <span key={i}>{p.text}</span>
                      ),
                    )}
                  </Text>
                )}
              </Box>
            </Group>
          </Box>
        ))}
      </Stack>
      {error && (
        <Text size="sm" c="red.8" role="alert">
          {error}
        </Text>
      )}
      <CommentBox
        label="Add a comment"
        submitLabel="Comment"
        onSubmit={(body) => attempt(() => host.graphql(CREATE_COMMENT, { input: { objectType, objectId, body } }))}
      />
    </Stack>
  );
}
