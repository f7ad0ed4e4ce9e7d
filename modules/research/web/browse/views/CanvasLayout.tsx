import { ActionIcon, Anchor, Box, Button, Group, Menu, Paper, Popover, Stack, Text, Textarea, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBulb, IconDots, IconEye, IconEyeOff, IconFileText, IconHighlight, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useAction } from '../ui/hooks.ts';
import { ErrorNote, notifyDone, notifyError } from '../ui/layout.tsx';
import { ADD_CANVAS_ITEM, type CanvasItem, type ProjectViewData } from './data.ts';

const REFERENCE_SIZE = { width: 240, height: 96 };
const PADDING = 48;

interface Reference {
  title: string;
  href: string | null;
}

const sizeOf = (item: CanvasItem) => (item.kind === 'REFERENCE' ? REFERENCE_SIZE : { width: item.width, height: item.height });

/** The notes, insights and highlights a canvas points at, fetched together by id. */
function useReferences(view: ProjectViewData): Map<string, Reference> {
  const { graphql } = useFieldbook();
  const [refs, setRefs] = useState<Map<string, Reference>>(new Map());
  const targets = view.canvasItems.flatMap((i) => (i.kind === 'REFERENCE' ? [{ type: i.objectType, id: i.objectId }] : []));
  const key = JSON.stringify(targets);
  useEffect(() => {
    const parts = targets.flatMap((t, i) => (t.type === 'NOTE' ? [`r${i}: note(id: "${t.id}") { id title }`] : t.type === 'INSIGHT' ? [`r${i}: insight(id: "${t.id}") { id title }`] : []));
    if (targets.some((t) => t.type === 'HIGHLIGHT')) parts.push(`hs: highlights(projectId: "${view.project.id}", first: 100) { nodes { id text noteId } }`);
    if (!parts.length) return;
    let stale = false;
    graphql<Record<string, unknown>>(`query BrowseCanvasReferences { ${parts.join('\n')} }`)
      .then((data) => {
        if (stale) return;
        const out = new Map<string, Reference>();
        targets.forEach((t, i) => {
          const doc = data[`r${i}`] as { id: string; title: string } | undefined;
          if (doc) out.set(t.id, { title: doc.title || (t.type === 'NOTE' ? 'Untitled note' : 'Untitled insight'), href: t.type === 'NOTE' ? `/data/${doc.id}` : `/insights/${doc.id}` });
        });
        for (const h of (data.hs as { nodes: Array<{ id: string; text: string; noteId: string | null }> } | undefined)?.nodes ?? []) {
          out.set(h.id, { title: `“${h.text}”`, href: h.noteId ? `/data/${h.noteId}` : null });
        }
        setRefs(out);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
    // `key` stands for the targets.
  }, [key, graphql, view.project.id]);
  return refs;
}

const REF_ICON = { NOTE: IconFileText, INSIGHT: IconBulb, HIGHLIGHT: IconHighlight } as const;
const REF_LABEL = { NOTE: 'Note', INSIGHT: 'Insight', HIGHLIGHT: 'Highlight' } as const;
const TEXT_SIZE = { H1: 28, H2: 22, H3: 18, PARAGRAPH: 15 } as const;

function CanvasShape({ item, refs }: { item: CanvasItem; refs: Map<string, Reference> }) {
  const { width, height } = sizeOf(item);
  const box = { position: 'absolute' as const, left: 0, top: 0, width, height };
  switch (item.kind) {
    case 'GROUP':
      return (
        <Box style={{ ...box, border: `2px solid ${item.color}`, background: `${item.color}14`, borderRadius: 12 }} role="group" aria-label={`Group: ${item.title}`}>
          <Text size="sm" fw={600} px="sm" py={6} style={{ color: item.color }}>
            {item.title || 'Untitled group'}
          </Text>
        </Box>
      );
    case 'RECTANGLE':
      return <Box style={{ ...box, border: '2px solid #adb5bd', borderRadius: 8, background: '#fff' }} role="img" aria-label="Rectangle" />;
    case 'TEXT':
      return item.format === 'PARAGRAPH' ? (
        <Text style={{ ...box, fontSize: TEXT_SIZE.PARAGRAPH, whiteSpace: 'pre-wrap', overflow: 'hidden' }}>{item.text}</Text>
      ) : (
        <Title order={item.format === 'H1' ? 2 : item.format === 'H2' ? 3 : 4} style={{ ...box, fontSize: TEXT_SIZE[item.format], overflow: 'hidden' }}>
          {item.text}
        </Title>
      );
    case 'REFERENCE': {
      const ref = refs.get(item.objectId);
      const Icon = REF_ICON[item.objectType];
      return (
        <Paper withBorder shadow="xs" radius="md" p="sm" style={{ ...box, overflow: 'hidden' }} component="article" aria-label={`${REF_LABEL[item.objectType]}: ${ref?.title ?? 'loading'}`}>
          <Group gap={6} mb={4} wrap="nowrap">
            <Icon size={14} aria-hidden color="#5c6370" />
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {REF_LABEL[item.objectType]}
            </Text>
          </Group>
          {ref?.href ? (
            <Anchor component={Link} to={ref.href} size="sm" fw={500} c="dark" lineClamp={3}>
              {ref.title}
            </Anchor>
          ) : (
            <Text size="sm" lineClamp={3}>
              {ref?.title ?? '…'}
            </Text>
          )}
        </Paper>
      );
    }
  }
}

function AddText({ view, at, onAdded }: { view: ProjectViewData; at: () => { x: number; y: number }; onAdded(): void }) {
  const { graphql } = useFieldbook();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const add = useAction(() => graphql(ADD_CANVAS_ITEM, { viewId: view.id, input: { kind: 'TEXT', ...at(), width: 260, height: 80, text: text.trim(), format: 'PARAGRAPH' } }));
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button variant="default" size="compact-sm" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setOpen((o) => !o)}>
          Add text
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (!text.trim()) return;
            if (await add.run()) {
              notifyDone('The text was added to the canvas.');
              setText('');
              setOpen(false);
              onAdded();
            }
          }}
        >
          <Stack gap="xs" w={280}>
            <Textarea label="Text" description="At most 10,000 characters." maxLength={10_000} autosize minRows={2} value={text} onChange={(e) => setText(e.currentTarget.value)} data-autofocus />
            <ErrorNote error={add.error} title="The text was not added" />
            <Group justify="flex-end">
              <Button type="submit" size="compact-sm" loading={add.busy} disabled={!text.trim()}>
                Add to canvas
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * CANVAS: the view's rectangles, text, groups and references where they were put (x and y are
 * canvas coordinates, negative ones too), in a scrollable area; items drawn in the view's order.
 */
const UPDATE_ITEM = `mutation BrowseUpdateCanvasItem($id: ID!, $input: UpdateCanvasItemInput!) { updateCanvasItem(id: $id, input: $input) { id } }`;
const REMOVE_ITEM = `mutation BrowseRemoveCanvasItem($id: ID!) { removeCanvasItem(id: $id) }`;
const STEP = 40;

const itemName = (item: CanvasItem): string =>
  item.kind === 'TEXT' ? `text “${item.text.slice(0, 30)}”` : item.kind === 'GROUP' ? `group “${item.title}”` : item.kind === 'REFERENCE' ? REF_LABEL[item.objectType].toLowerCase() : 'rectangle';

/** An item's menu: nudge it by a grid step (keyboard-friendly moving), hide it, or take it off the canvas. */
function ItemMenu({ item, onChanged }: { item: CanvasItem; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const call = async (query: string, variables: Record<string, unknown>) => {
    try {
      await graphql(query, variables);
      onChanged();
    } catch (err) {
      notifyError(err, 'The canvas was not changed');
    }
  };
  const nudge = (dx: number, dy: number) => void call(UPDATE_ITEM, { id: item.id, input: { x: item.x + dx, y: item.y + dy } });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon size="sm" variant="white" color="gray" aria-label={`Actions for ${itemName(item)}`} style={{ position: 'absolute', top: 2, right: 2, zIndex: 1 }}>
          <IconDots size={14} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => nudge(-STEP, 0)}>Move left</Menu.Item>
        <Menu.Item onClick={() => nudge(STEP, 0)}>Move right</Menu.Item>
        <Menu.Item onClick={() => nudge(0, -STEP)}>Move up</Menu.Item>
        <Menu.Item onClick={() => nudge(0, STEP)}>Move down</Menu.Item>
        <Menu.Divider />
        <Menu.Item leftSection={<IconEyeOff size={14} aria-hidden />} onClick={() => void call(UPDATE_ITEM, { id: item.id, input: { hidden: true } })}>
          Hide
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => void call(REMOVE_ITEM, { id: item.id })}>
          Remove from canvas
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function CanvasLayout({ view, onChanged }: { view: ProjectViewData; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const refs = useReferences(view);
  const items = view.canvasItems.filter((i) => !i.hidden);
  const hidden = view.canvasItems.filter((i) => i.hidden);
  const showHidden = async () => {
    try {
      for (const item of hidden) await graphql(UPDATE_ITEM, { id: item.id, input: { hidden: false } });
    } catch (err) {
      notifyError(err, 'Not every hidden item is shown again');
    }
    onChanged();
  };
  const minX = Math.min(0, ...items.map((i) => i.x));
  const minY = Math.min(0, ...items.map((i) => i.y));
  const maxX = Math.max(0, ...items.map((i) => i.x + sizeOf(i).width));
  const maxY = Math.max(0, ...items.map((i) => i.y + sizeOf(i).height));
  const width = maxX - minX + PADDING * 2;
  const height = maxY - minY + PADDING * 2;
  const scroller = useRef<HTMLDivElement>(null);
  // New items go to the staging area when the canvas has one, else to the top left of what is in sight.
  const next = () => {
    if (view.canvas.stagingArea) return view.canvas.stagingArea;
    const el = scroller.current;
    return { x: Math.round((el?.scrollLeft ?? 0) + minX - PADDING + 24), y: Math.round((el?.scrollTop ?? 0) + minY - PADDING + 24) };
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {items.length === 1 ? '1 item' : `${items.length} items`} on the canvas
        </Text>
        <Group gap="xs">
          {view.canEdit && hidden.length > 0 && (
            <Button variant="subtle" size="compact-sm" leftSection={<IconEye size={14} aria-hidden />} onClick={() => void showHidden()}>
              Show {hidden.length === 1 ? '1 hidden item' : `${hidden.length} hidden items`}
            </Button>
          )}
          {view.canEdit && <AddText view={view} at={next} onAdded={onChanged} />}
        </Group>
      </Group>
      <Box
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label="Canvas, scroll to see every item"
        style={{ overflow: 'auto', height: 640, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, backgroundColor: '#fafbfc', backgroundImage: 'radial-gradient(#dee2e6 1px, transparent 1px)', backgroundSize: '20px 20px' }}
      >
        <Box pos="relative" style={{ width, height, minWidth: '100%', minHeight: '100%' }}>
          {items.map((item) => (
            <Box key={item.id} pos="absolute" style={{ left: item.x - minX + PADDING, top: item.y - minY + PADDING, width: sizeOf(item).width, height: sizeOf(item).height }} data-canvas-item={item.kind}>
              <CanvasShape item={item} refs={refs} />
              {view.canEdit && <ItemMenu item={item} onChanged={onChanged} />}
            </Box>
          ))}
          {!items.length && (
            <Text c="dimmed" size="sm" pos="absolute" top={PADDING} left={PADDING}>
              This canvas is empty.{view.canEdit ? ' Add text to start laying out your thinking.' : ''}
            </Text>
          )}
        </Box>
      </Box>
    </Stack>
  );
}
