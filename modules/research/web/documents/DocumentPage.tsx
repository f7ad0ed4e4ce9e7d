import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Breadcrumbs,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  Menu,
  Paper,
  Popover,
  Stack,
  Tabs,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { TranslateDialog } from '@fieldbook/ai/web/translate';
import { Slot, useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import {
  IconDots,
  IconLanguage,
  IconLock,
  IconLockOpen,
  IconQuote,
  IconShare,
  IconTrash,
  IconWorld,
  IconWorldOff,
} from '@tabler/icons-react';
import type { Editor, JSONContent } from '@tiptap/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { announceTrashed } from '../browse/bulk/trash-actions.tsx';
import { FollowButton } from '../browse/ui/FollowButton.tsx';
import { WrittenByAi } from '../browse/ui/WrittenByAi.tsx';
import { RequestAccessPanel } from '../browse/project/RequestAccessPanel.tsx';
import {
  CITE_HIGHLIGHT,
  CREATE_HIGHLIGHT,
  DELETE_HIGHLIGHT,
  DELETE_INSIGHT,
  DELETE_NOTE,
  INSIGHT_QUERY,
  NOTE_HIGHLIGHTS,
  NOTE_QUERY,
  PUBLISH_INSIGHT,
  UNCITE_HIGHLIGHT,
  UNPUBLISH_INSIGHT,
  UPDATE_INSIGHT,
  UPDATE_NOTE,
  highlightTagsQuery,
  type DocumentData,
  type DocumentKind,
  type Highlight,
  type Person,
  type Tag,
} from './api.ts';
import { CitePicker } from './CitePicker.tsx';
import { DocumentEditor } from './editor/DocumentEditor.tsx';
import { DEFAULT_HIGHLIGHT_FILL } from './editor/highlight-paint.ts';
import { offsetsToRanges, textMap } from './editor/text-map.ts';
import { errorCode, errorMessage } from './errors.ts';
import { CommentsTab } from './panel/CommentsTab.tsx';
import { ContactsTab } from './panel/ContactsTab.tsx';
import { FieldsTab } from './panel/FieldsTab.tsx';
import { HighlightsTab } from './panel/HighlightsTab.tsx';
import { SuggestedHighlights } from '@fieldbook/ai/web/suggestions';
import { SummaryTab } from './panel/SummaryTab.tsx';
import { TagsTab } from './panel/TagsTab.tsx';
import { ShareDialog } from './share/ShareDialog.tsx';
import { TagPicker } from './TagPicker.tsx';
import { useAutosave, type SaveState } from './useAutosave.ts';
import { useCitedPassage } from './useCitedPassage.ts';

const TITLE_MAX = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LABEL: Record<DocumentKind, { one: string; Title: string; untitled: string }> = {
  note: { one: 'note', Title: 'Note', untitled: 'Untitled note' },
  insight: { one: 'insight', Title: 'Insight', untitled: 'Untitled insight' },
};

function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Fieldbook` : 'Fieldbook';
  }, [title]);
}

/** The ids of the highlights a document cites, from its citation blocks. */
function citedIds(doc: JSONContent | null | undefined, into = new Set<string>()): Set<string> {
  if (!doc) return into;
  if (doc.type === 'citation' && typeof doc.attrs?.highlightId === 'string') into.add(doc.attrs.highlightId);
  for (const c of doc.content ?? []) citedIds(c, into);
  return into;
}

function SaveStatus({ state, onRetry }: { state: SaveState; onRetry: () => void }) {
  const text =
    state.status === 'saved'
      ? 'Saved'
      : state.status === 'saving'
        ? 'Saving…'
        : state.status === 'pending'
          ? 'Unsaved changes'
          : 'Not saved';
  return (
    <Group gap={6} wrap="nowrap">
      <Text
        size="sm"
        c={state.status === 'error' ? 'red.8' : 'dimmed'}
        role="status"
        aria-live="polite"
        data-save-state={state.status}
      >
        {text}
      </Text>
      {state.status === 'error' && (
        <Button size="compact-xs" variant="light" color="red" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Group>
  );
}

const RESTRICTED_PROJECT =
  'query($type: RestrictedItemType!, $id: ID!) { restrictedItemProject(objectType: $type, objectId: $id) }';

/**
 * A document the person cannot open: when it is in a project restricted to them, the same
 * request-access panel as the project's page (naming neither the item nor the project);
 * otherwise "can't be found".
 */
function Unreadable({ kind, id }: { kind: DocumentKind; id: string }) {
  const host = useFieldbook();
  const q = useGraphQL<{ restrictedItemProject: string | null }>(RESTRICTED_PROJECT, {
    type: kind === 'note' ? 'NOTE' : 'INSIGHT',
    id,
  });
  const projectId = q.data?.restrictedItemProject;
  if (projectId)
    return <RequestAccessPanel projectId={projectId} viewerOnly={!host.permissions.includes('notes:create')} item />;
  if (q.loading && !q.error) {
    return (
      <Center py="xl" role="status" aria-live="polite">
        <Loader size="sm" aria-label={`Loading the ${LABEL[kind].one}`} />
      </Center>
    );
  }
  return <NotFoundCard kind={kind} />;
}

function NotFoundCard({ kind }: { kind: DocumentKind }) {
  usePageTitle(`${LABEL[kind].Title} not found`);
  return (
    <Center pt={48}>
      <Paper withBorder p="xl" maw={520}>
        <Stack gap="sm">
          <Text component="h1" fz={24} fw={650}>
            This {LABEL[kind].one} can’t be found
          </Text>
          <Text size="sm">
            It may have been moved to the trash, or it is in a project you don’t have access to. Check the link, or ask
            the person who sent it to share the project with you.
          </Text>
          <Group>
            <Button component={Link} to="/projects">
              Go to projects
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}

/** `/data/:noteId`, `/projects/:projectId/view/:noteId` and `/insights/:insightId`. */
export function DocumentRoute({ kind }: { kind: DocumentKind }) {
  const params = useParams();
  const id = (kind === 'note' ? params.noteId : params.insightId) ?? '';
  const valid = UUID.test(id);
  const q = useGraphQL<{ note?: DocumentData; insight?: DocumentData }>(kind === 'note' ? NOTE_QUERY : INSIGHT_QUERY, {
    id: valid ? id : '00000000-0000-4000-8000-000000000000',
  });
  const data = kind === 'note' ? q.data?.note : q.data?.insight;
  if (!valid) return <NotFoundCard kind={kind} />;
  if (errorCode(q.error) === 'NOT_FOUND') return <Unreadable kind={kind} id={id} />;
  if (q.error && !data) {
    return (
      <Box maw={864} mx="auto" pt="xl">
        <Alert color="red" variant="light" role="alert" title={`This ${LABEL[kind].one} could not be loaded`}>
          <Text size="sm">{errorMessage(q.error)}</Text>
          <Button size="compact-sm" variant="white" color="red" mt="sm" onClick={() => void q.refetch()}>
            Try again
          </Button>
        </Alert>
      </Box>
    );
  }
  if (!data || data.id !== id) {
    return (
      <Center py="xl" role="status" aria-live="polite">
        <Loader size="sm" aria-label={`Loading the ${LABEL[kind].one}`} />
      </Center>
    );
  }
  return <DocumentView key={data.id} kind={kind} initial={data} />;
}

function DocumentView({ kind, initial }: { kind: DocumentKind; initial: DocumentData }) {
  const host = useFieldbook();
  const label = LABEL[kind];
  const access = initial.project.myAccess;
  const isManager = access.accessRole === 'MANAGER';
  const [locked, setLocked] = useState(initial.locked);
  const canEdit = access.canEdit && (!locked || isManager);
  const canHighlight = kind === 'note' && access.canEdit && host.permissions.includes('notes:update');
  const canShare = host.permissions.includes('acl:write');
  const canDelete = access.canEdit && host.permissions.includes(kind === 'note' ? 'notes:delete' : 'insights:delete');
  // Translation writes a new note beside this one: it needs the right to edit this note and to create notes.
  const canTranslate = kind === 'note' && access.canEdit && host.permissions.includes('notes:create');
  const [translateOpen, setTranslateOpen] = useState(false);
  const navigate = useNavigate();
  const location = useLocation();

  const [title, setTitle] = useState(initial.title);
  const [highlights, setHighlights] = useState<Highlight[]>(initial.highlights);
  const [tags, setTags] = useState<Map<string, Tag[]>>(new Map());
  // Bumped when the server changed the highlights' tags (an AI step): they are read again.
  const [tagsRead, setTagsRead] = useState(0);
  const [people, setPeople] = useState<Person[]>(initial.people ?? []);
  const [published, setPublished] = useState(Boolean(initial.published));
  const [tab, setTab] = useState<string | null>('highlights');
  const [shareOpen, setShareOpen] = useState(false);
  const [sharedHighlight, setSharedHighlight] = useState<Highlight | null>(null);
  const [citeOpen, setCiteOpen] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [justMade, setJustMade] = useState<{ highlight: Highlight; anchor: DOMRect } | null>(null);
  const editorRef = useRef<Editor | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const passage = useCitedPassage(editor, kind, highlights);
  const lastCited = useRef(citedIds(initial.content as JSONContent | null));
  usePageTitle(title.trim() || label.untitled);

  const save = useCallback(
    async (patch: { title?: string; content?: JSONContent }) => {
      await host.graphql(kind === 'note' ? UPDATE_NOTE : UPDATE_INSIGHT, { id: initial.id, input: patch });
    },
    [host, kind, initial.id],
  );
  const autosave = useAutosave(save);

  const highlightIds = highlights.map((h) => h.id).join(',');
  useEffect(() => {
    const ids = highlightIds ? highlightIds.split(',') : [];
    if (!ids.length) return;
    let stale = false;
    host
      .graphql<Record<string, Tag[]>>(highlightTagsQuery(ids))
      .then((r) => {
        if (!stale) setTags(new Map(ids.map((id, i) => [id, r[`h${i}`] ?? []])));
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [host, highlightIds, tagsRead]);

  // A highlight without its own colour takes the colour of its first tag.
  const fillOf = useCallback(
    (h: Highlight) => h.displayColor ?? tags.get(h.id)?.[0]?.highlightColor ?? DEFAULT_HIGHLIGHT_FILL,
    [tags],
  );
  const painted = useMemo(
    () =>
      kind === 'note'
        ? highlights.map((h) => ({ id: h.id, startOffset: h.startOffset, endOffset: h.endOffset, fill: fillOf(h) }))
        : [],
    [kind, highlights, fillOf],
  );

  const attempt = async (fn: () => Promise<void>) => {
    setActionError(null);
    try {
      await fn();
    } catch (err) {
      setActionError(errorMessage(err));
    }
  };

  const onChange = (doc: JSONContent) => {
    autosave.change({ content: doc });
    if (kind !== 'insight') return;
    // A citation block deleted from the text stops citing its highlight.
    const now = citedIds(doc);
    for (const gone of [...lastCited.current].filter((id) => !now.has(id))) {
      if (highlights.some((h) => h.id === gone)) {
        void attempt(async () => {
          await host.graphql(UNCITE_HIGHLIGHT, { insightId: initial.id, highlightId: gone });
          setHighlights((list) => list.filter((h) => h.id !== gone));
        });
      }
    }
    lastCited.current = now;
  };

  const createHighlight = (span: { start: number; end: number; anchor: DOMRect }) =>
    attempt(async () => {
      // Offsets point into the saved text, so the text on screen is saved first.
      await autosave.flush();
      const h = (
        await host.graphql<{ createHighlight: Highlight }>(CREATE_HIGHLIGHT, {
          input: { noteId: initial.id, startOffset: span.start, endOffset: span.end },
        })
      ).createHighlight;
      setHighlights((list) => [...list, h].sort((a, b) => a.startOffset - b.startOffset));
      setJustMade({ highlight: h, anchor: span.anchor });
      setTab('highlights');
    });

  // An accepted suggestion became a highlight on the server: read the note's highlights again.
  const reloadHighlights = () =>
    attempt(async () => {
      const r = await host.graphql<{ note: { highlights: Highlight[] } }>(NOTE_HIGHLIGHTS, { id: initial.id });
      setHighlights([...r.note.highlights].sort((a, b) => a.startOffset - b.startOffset));
    });

  // An AI step accepted or undone beside the editor changed the note on the server (its text,
  // highlights or their tags): what is typed is saved first, then the note is read again and the
  // editor shows it without telling autosave, which has nothing new to save.
  const reloadNote = () =>
    attempt(async () => {
      await autosave.flush();
      const r = await host.graphql<{ note: DocumentData }>(NOTE_QUERY, { id: initial.id });
      editorRef.current?.commands.setContent(
        (r.note.content as JSONContent | null) ?? { type: 'doc', content: [{ type: 'paragraph' }] },
        { emitUpdate: false },
      );
      setHighlights([...r.note.highlights].sort((a, b) => a.startOffset - b.startOffset));
      setTagsRead((n) => n + 1);
    });

  const removeHighlight = (h: Highlight) =>
    attempt(async () => {
      if (kind === 'note') {
        await host.graphql(DELETE_HIGHLIGHT, { id: h.id });
      } else {
        await host.graphql(UNCITE_HIGHLIGHT, { insightId: initial.id, highlightId: h.id });
        const editor = editorRef.current;
        if (editor) {
          const ranges: Array<{ from: number; to: number }> = [];
          editor.state.doc.descendants((node, pos) => {
            if (node.type.name === 'citation' && node.attrs.highlightId === h.id)
              ranges.push({ from: pos, to: pos + node.nodeSize });
          });
          lastCited.current.delete(h.id);
          const tr = editor.state.tr;
          for (const r of ranges.reverse()) tr.delete(r.from, r.to);
          if (ranges.length) editor.view.dispatch(tr);
        }
      }
      setHighlights((list) => list.filter((x) => x.id !== h.id));
    });

  const cite = async (h: Highlight) => {
    await attempt(async () => {
      const r = (
        await host.graphql<{ citeHighlight: Highlight }>(CITE_HIGHLIGHT, { insightId: initial.id, highlightId: h.id })
      ).citeHighlight;
      setHighlights((list) => [...list.filter((x) => x.id !== r.id), r]);
      lastCited.current.add(r.id);
      editorRef.current
        ?.chain()
        .focus()
        .insertCitation({
          highlightId: r.id,
          text: r.text,
          noteTitle: r.note?.title ?? '',
          noteId: r.note?.id ?? r.noteId,
        })
        .run();
      setCiteOpen(false);
    });
  };

  const focusHighlight = (h: Highlight) => {
    const editor = editorRef.current;
    if (!editor || kind !== 'note') return;
    const [first] = offsetsToRanges(textMap(editor.state.doc), h.startOffset, h.endOffset);
    if (first) editor.chain().setTextSelection(first).scrollIntoView().run();
  };

  const toggleLock = () =>
    attempt(async () => {
      await autosave.flush();
      await host.graphql(kind === 'note' ? UPDATE_NOTE : UPDATE_INSIGHT, {
        id: initial.id,
        input: { locked: !locked },
      });
      setLocked(!locked);
    });

  const togglePublish = () =>
    attempt(async () => {
      await autosave.flush();
      const r = await host.graphql<{
        publishInsight?: { published: boolean };
        unpublishInsight?: { published: boolean };
      }>(published ? UNPUBLISH_INSIGHT : PUBLISH_INSIGHT, { id: initial.id });
      setPublished(Boolean((r.publishInsight ?? r.unpublishInsight)?.published));
    });

  const moveToTrash = () =>
    attempt(async () => {
      await autosave.flush();
      await host.graphql(kind === 'note' ? DELETE_NOTE : DELETE_INSIGHT, { id: initial.id });
      const back = `/projects/${initial.project.id}${kind === 'insight' ? '?tab=insights' : ''}`;
      announceTrashed(
        kind === 'note' ? 'NOTE' : 'INSIGHT',
        { done: [initial.id], failed: [] },
        host.permissions.includes('projects:delete')
          ? {
              graphql: host.graphql,
              onRestored: () => navigate(kind === 'note' ? `/data/${initial.id}` : `/insights/${initial.id}`),
            }
          : undefined,
      );
      navigate(back);
    });

  const cited = useMemo(() => new Set(highlights.map((h) => h.id)), [highlights]);
  const onReady = useCallback((e: Editor) => {
    editorRef.current = e;
    setEditor(e);
  }, []);

  return (
    <Box maw={1200} mx="auto" w="100%">
      <Breadcrumbs mb="sm" separatorMargin={6} aria-label="Breadcrumb" fz="sm">
        <Anchor component={Link} to={`/projects/${initial.project.id}`} size="sm" c="dimmed">
          {initial.project.title || 'Untitled project'}
        </Anchor>
        <Text size="sm" c="dimmed">
          {kind === 'note' ? 'Notes' : 'Insights'}
        </Text>
      </Breadcrumbs>
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Box component="article" style={{ flex: '1 1 560px', minWidth: 0 }} maw={864}>
          <Group justify="space-between" gap="sm" mb="xs" wrap="wrap">
            <Group gap={6}>
              {kind === 'insight' && (
                <Badge
                  variant="light"
                  color={published ? 'teal' : 'gray'}
                  leftSection={published ? <IconWorld size={12} aria-hidden /> : null}
                >
                  {published ? 'Published' : 'Draft'}
                </Badge>
              )}
              <WrittenByAi maker={initial.createdBy} />
              {locked && (
                <Badge variant="light" color="orange" leftSection={<IconLock size={12} aria-hidden />}>
                  Locked
                </Badge>
              )}
              {initial.archived && (
                <Badge variant="light" color="gray">
                  Archived
                </Badge>
              )}
              {!canEdit && (
                <Badge variant="outline" color="gray">
                  Read only
                </Badge>
              )}
            </Group>
            <Group gap="xs">
              {canEdit && <SaveStatus state={autosave.state} onRetry={() => void autosave.retry()} />}
              {isManager && access.canEdit && (
                <Tooltip
                  label={
                    locked
                      ? `Let contributors edit this ${label.one} again`
                      : `Only managers and admins can edit a locked ${label.one}`
                  }
                >
                  <Button
                    variant="default"
                    size="sm"
                    leftSection={locked ? <IconLockOpen size={16} aria-hidden /> : <IconLock size={16} aria-hidden />}
                    onClick={() => void toggleLock()}
                  >
                    {locked ? 'Unlock' : 'Lock'}
                  </Button>
                </Tooltip>
              )}
              {kind === 'insight' && canEdit && (
                <Button
                  variant={published ? 'default' : 'filled'}
                  size="sm"
                  leftSection={published ? <IconWorldOff size={16} aria-hidden /> : <IconWorld size={16} aria-hidden />}
                  onClick={() => void togglePublish()}
                >
                  {published ? 'Unpublish' : 'Publish'}
                </Button>
              )}
              {kind === 'insight' && <FollowButton type="INSIGHT" id={initial.id} what="insight" />}
              {canShare && (
                <Button
                  variant="default"
                  size="sm"
                  leftSection={<IconShare size={16} aria-hidden />}
                  onClick={() => setShareOpen(true)}
                >
                  Share
                </Button>
              )}
              {(canDelete || canTranslate) && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="default" size="lg" aria-label={`More actions for this ${label.one}`}>
                      <IconDots size={16} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {canTranslate && (
                      <Menu.Item
                        leftSection={<IconLanguage size={14} aria-hidden />}
                        onClick={() => setTranslateOpen(true)}
                      >
                        Translate…
                      </Menu.Item>
                    )}
                    {canDelete && (
                      <Menu.Item
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        onClick={() => void moveToTrash()}
                      >
                        Move to trash
                      </Menu.Item>
                    )}
                  </Menu.Dropdown>
                </Menu>
              )}
              {kind === 'note' && host.workspace && (
                <Slot
                  name="note.toolbar.action/v1"
                  props={{ workspace: host.workspace, noteId: initial.id, projectId: initial.projectId }}
                />
              )}
            </Group>
          </Group>
          {actionError && (
            <Alert
              color="red"
              variant="light"
              role="alert"
              mb="sm"
              withCloseButton
              onClose={() => setActionError(null)}
              closeButtonLabel="Dismiss"
            >
              {actionError}
            </Alert>
          )}
          {autosave.state.status === 'error' && (
            <Alert color="red" variant="light" role="alert" mb="sm" title="Your last changes are not saved">
              {errorMessage(autosave.state.error)} Your text stays here; choose “Try again” to save it.
            </Alert>
          )}
          <Textarea
            variant="unstyled"
            aria-label={`${label.Title} title`}
            placeholder={label.untitled}
            value={title}
            readOnly={!canEdit}
            autosize
            minRows={1}
            maxLength={TITLE_MAX}
            styles={{
              input: {
                fontSize: 32,
                fontWeight: 700,
                lineHeight: 1.25,
                padding: 0,
                color: 'var(--mantine-color-text)',
              },
            }}
            onChange={(e) => {
              const next = e.currentTarget.value.replace(/\n/g, ' ');
              setTitle(next);
              autosave.change({ title: next });
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                editorRef.current?.commands.focus('start');
              }
            }}
          />
          {canEdit && title.length >= TITLE_MAX && (
            <Text size="xs" c="dimmed">
              A title can be at most {TITLE_MAX} characters.
            </Text>
          )}
          {kind === 'insight' && canEdit && (
            <Group my="sm">
              <Button
                variant="light"
                size="compact-sm"
                leftSection={<IconQuote size={14} aria-hidden />}
                onClick={() => setCiteOpen(true)}
              >
                Add highlight
              </Button>
            </Group>
          )}
          <Box mt="md">
            <DocumentEditor
              content={initial.content as JSONContent | null}
              editable={canEdit}
              label={`${label.Title} content`}
              placeholder={
                canEdit
                  ? kind === 'note'
                    ? 'Write or paste your notes…'
                    : 'Write what you learned, then cite the highlights that show it…'
                  : ''
              }
              highlights={painted}
              onChange={onChange}
              onHighlight={canHighlight ? (span) => void createHighlight(span) : undefined}
              onReady={onReady}
            />
          </Box>
          {/* Fixed at the foot of the screen, so it is seen beside the passage and moves no text. */}
          <Box role="status" aria-live="polite">
            {passage && (
              <Paper
                withBorder
                shadow="md"
                radius="xl"
                px="md"
                py={6}
                pos="fixed"
                bottom={24}
                left="50%"
                style={{ transform: 'translateX(-50%)', zIndex: 20 }}
              >
                <Group gap="sm" wrap="nowrap">
                  <Text size="sm">
                    {passage === 'shown'
                      ? 'Showing the cited passage'
                      : `The cited passage is no longer in this ${label.one}`}
                  </Text>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() =>
                      navigate({ pathname: location.pathname, search: location.search }, { replace: true })
                    }
                  >
                    Clear
                  </Button>
                </Group>
              </Paper>
            )}
          </Box>
          {justMade && (
            <Popover
              opened
              onChange={(o) => !o && setJustMade(null)}
              position="bottom-start"
              shadow="md"
              trapFocus
              withinPortal
            >
              <Popover.Target>
                <Box pos="fixed" top={justMade.anchor.bottom} left={justMade.anchor.left} w={1} h={1} aria-hidden />
              </Popover.Target>
              <Popover.Dropdown aria-label="Tag the new highlight">
                <Stack gap="xs">
                  <Text size="sm" fw={600}>
                    Highlighted. Add tags?
                  </Text>
                  <TagPicker
                    projectId={initial.projectId}
                    highlightId={justMade.highlight.id}
                    applied={tags.get(justMade.highlight.id) ?? []}
                    canEdit={canHighlight}
                    onChange={(t) => setTags((m) => new Map(m).set(justMade.highlight.id, t))}
                  />
                  <Group justify="flex-end">
                    <Button size="compact-sm" variant="default" onClick={() => setJustMade(null)}>
                      Done
                    </Button>
                  </Group>
                </Stack>
              </Popover.Dropdown>
            </Popover>
          )}
        </Box>
        <Paper
          component="aside"
          aria-label={`${label.Title} details`}
          withBorder
          radius="md"
          p="sm"
          style={{ flex: '0 1 340px', minWidth: 300, position: 'sticky', top: 72 }}
        >
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List grow mb="sm" style={{ flexWrap: 'wrap' }}>
              <Tabs.Tab value="summary">Summary</Tabs.Tab>
              <Tabs.Tab value="highlights">Highlights{highlights.length ? ` (${highlights.length})` : ''}</Tabs.Tab>
              <Tabs.Tab value="fields">Fields</Tabs.Tab>
              <Tabs.Tab value="comments">Comments</Tabs.Tab>
              <Tabs.Tab value="tags">Tags</Tabs.Tab>
              <Tabs.Tab value="contacts">Contacts</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="summary">
              <SummaryTab
                kind={kind}
                id={initial.id}
                summary={initial.summary}
                onNoteChanged={kind === 'note' ? () => void reloadNote() : undefined}
              />
            </Tabs.Panel>
            <Tabs.Panel value="highlights">
              {kind === 'note' && (
                <>
                  <SuggestedHighlights
                    noteId={initial.id}
                    canEdit={canHighlight}
                    beforeSuggest={async () => void (await autosave.flush())}
                    onAccepted={() => void reloadHighlights()}
                  />
                  <Divider my="sm" />
                </>
              )}
              <HighlightsTab
                kind={kind}
                projectId={initial.projectId}
                highlights={highlights}
                tags={tags}
                canEdit={kind === 'note' ? canHighlight : canEdit}
                onTagsChange={(id, t) => setTags((m) => new Map(m).set(id, t))}
                onDelete={(h) => void removeHighlight(h)}
                onFocus={focusHighlight}
                onShare={kind === 'note' && canShare ? setSharedHighlight : undefined}
                fillOf={fillOf}
                noteId={kind === 'note' ? initial.id : undefined}
                notePeople={people}
              />
            </Tabs.Panel>
            <Tabs.Panel value="fields">
              <FieldsTab kind={kind} objectId={initial.id} projectId={initial.projectId} canEdit={access.canEdit} />
            </Tabs.Panel>
            <Tabs.Panel value="comments">
              <CommentsTab objectType={kind === 'note' ? 'NOTE' : 'INSIGHT'} objectId={initial.id} />
            </Tabs.Panel>
            <Tabs.Panel value="tags">
              <TagsTab
                tags={tags}
                noteId={kind === 'note' ? initial.id : undefined}
                projectId={initial.projectId}
                canEdit={canEdit && host.permissions.includes('tags:update')}
              />
            </Tabs.Panel>
            <Tabs.Panel value="contacts">
              <ContactsTab
                kind={kind}
                noteId={initial.id}
                people={people}
                canEdit={access.canEdit}
                onChange={setPeople}
              />
            </Tabs.Panel>
          </Tabs>
        </Paper>
      </Group>
      {canTranslate && translateOpen && <TranslateDialog noteId={initial.id} onClose={() => setTranslateOpen(false)} />}
      {canShare && shareOpen && (
        <ShareDialog
          opened
          onClose={() => setShareOpen(false)}
          objectType={kind}
          objectId={initial.id}
          what={label.one}
        />
      )}
      {canShare && sharedHighlight && (
        <ShareDialog
          opened
          onClose={() => setSharedHighlight(null)}
          objectType="noteHighlight"
          objectId={sharedHighlight.id}
          what="highlight"
          embedPath={(token) => `/embed/highlights/${sharedHighlight.id}?token=${token}`}
        />
      )}
      {kind === 'insight' && citeOpen && (
        <CitePicker
          opened
          onClose={() => setCiteOpen(false)}
          projectId={initial.projectId}
          cited={cited}
          onCite={cite}
        />
      )}
    </Box>
  );
}
