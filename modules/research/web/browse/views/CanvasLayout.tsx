import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  ColorInput,
  Group,
  Menu,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  Popover,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import {
  IconBulb,
  IconDots,
  IconEye,
  IconEyeOff,
  IconFileText,
  IconHighlight,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useAction, useLoad } from '../ui/hooks.ts';
import { ErrorNote, notifyDone, notifyError } from '../ui/layout.tsx';
import { ADD_CANVAS_ITEM, type CanvasItem, type ProjectViewData, type ViewObjectType } from './data.ts';

const PADDING = 48;

interface Reference {
  title: string;
  href: string | null;
}

const sizeOf = (item: CanvasItem) => ({ width: item.width, height: item.height });

/** What resizing keeps an item within, in canvas units: small enough to grab, no larger than a wall. */
export const RESIZE = { min: { width: 40, height: 24 }, max: 4000, keyStep: 20, bigKeyStep: 100 } as const;
const clampSize = (size: { width: number; height: number }) => ({
  width: Math.round(Math.min(RESIZE.max, Math.max(RESIZE.min.width, size.width))),
  height: Math.round(Math.min(RESIZE.max, Math.max(RESIZE.min.height, size.height))),
});

/** The notes, insights and highlights a canvas points at, fetched together by id. */
function useReferences(view: ProjectViewData): Map<string, Reference> {
  const { graphql } = useFieldbook();
  const [refs, setRefs] = useState<Map<string, Reference>>(new Map());
  const targets = view.canvasItems.flatMap((i) =>
    i.kind === 'REFERENCE' ? [{ type: i.objectType, id: i.objectId }] : [],
  );
  const key = JSON.stringify(targets);
  useEffect(() => {
    const parts = targets.flatMap((t, i) =>
      t.type === 'NOTE'
        ? [`r${i}: note(id: "${t.id}") { id title }`]
        : t.type === 'INSIGHT'
          ? [`r${i}: insight(id: "${t.id}") { id title }`]
          : [],
    );
    if (targets.some((t) => t.type === 'HIGHLIGHT'))
      parts.push(`hs: highlights(projectId: "${view.project.id}", first: 100) { nodes { id text noteId } }`);
    if (!parts.length) return;
    let stale = false;
    graphql<Record<string, unknown>>(`query BrowseCanvasReferences { ${parts.join('\n')} }`)
      .then((data) => {
        if (stale) return;
        const out = new Map<string, Reference>();
        targets.forEach((t, i) => {
          const doc = data[`r${i}`] as { id: string; title: string } | undefined;
          if (doc)
            out.set(t.id, {
              title: doc.title || (t.type === 'NOTE' ? 'Untitled note' : 'Untitled insight'),
              href: t.type === 'NOTE' ? `/data/${doc.id}` : `/insights/${doc.id}`,
            });
        });
        for (const h of (data.hs as { nodes: Array<{ id: string; text: string; noteId: string | null }> } | undefined)
          ?.nodes ?? []) {
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

function CanvasShape({
  item,
  refs,
  size,
}: {
  item: CanvasItem;
  refs: Map<string, Reference>;
  size: { width: number; height: number };
}) {
  const { width, height } = size;
  const box = { position: 'absolute' as const, left: 0, top: 0, width, height };
  switch (item.kind) {
    case 'GROUP':
      return (
        <Box
          style={{ ...box, border: `2px solid ${item.color}`, background: `${item.color}14`, borderRadius: 12 }}
          role="group"
          aria-label={`Group: ${item.title}`}
        >
          <Text size="sm" fw={600} px="sm" py={6} style={{ color: item.color }}>
            {item.title || 'Untitled group'}
          </Text>
        </Box>
      );
    case 'RECTANGLE':
      return (
        <Box
          style={{ ...box, border: '2px solid #adb5bd', borderRadius: 8, background: '#fff' }}
          role="img"
          aria-label="Rectangle"
        />
      );
    case 'TEXT':
      return item.format === 'PARAGRAPH' ? (
        <Text style={{ ...box, fontSize: TEXT_SIZE.PARAGRAPH, whiteSpace: 'pre-wrap', overflow: 'hidden' }}>
          {item.text}
        </Text>
      ) : (
        <Title
          order={item.format === 'H1' ? 2 : item.format === 'H2' ? 3 : 4}
          style={{ ...box, fontSize: TEXT_SIZE[item.format], overflow: 'hidden' }}
        >
          {item.text}
        </Title>
      );
    case 'REFERENCE': {
      const ref = refs.get(item.objectId);
      const Icon = REF_ICON[item.objectType];
      return (
        <Paper
          withBorder
          shadow="xs"
          radius="md"
          p="sm"
          style={{ ...box, overflow: 'hidden' }}
          component="article"
          aria-label={`${REF_LABEL[item.objectType]}: ${ref?.title ?? 'loading'}`}
        >
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

const FORMATS = [
  { value: 'PARAGRAPH', label: 'Paragraph' },
  { value: 'H1', label: 'Heading 1' },
  { value: 'H2', label: 'Heading 2' },
  { value: 'H3', label: 'Heading 3' },
];
const GROUP_COLORS = ['#7048e8', '#1971c2', '#0c8599', '#2f9e44', '#f08c00', '#e03131', '#868e96'];
const TEXT_BOX = {
  PARAGRAPH: { width: 260, height: 80 },
  H1: { width: 420, height: 48 },
  H2: { width: 380, height: 40 },
  H3: { width: 320, height: 32 },
} as const;

function AddPopover({ label, children }: { label: string; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button
          variant="default"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => setOpen((o) => !o)}
        >
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>{open && children(() => setOpen(false))}</Popover.Dropdown>
    </Popover>
  );
}

function useAdd(view: ProjectViewData, onAdded: () => void) {
  const { graphql } = useFieldbook();
  return useAction(async (input: Record<string, unknown>, done: string) => {
    await graphql(ADD_CANVAS_ITEM, { viewId: view.id, input });
    notifyDone(done);
    onAdded();
    return true;
  });
}

/** Text in one of the four formats (paragraph, H1, H2, H3). */
function TextForm({
  view,
  at,
  onAdded,
  close,
}: {
  view: ProjectViewData;
  at: () => { x: number; y: number };
  onAdded(): void;
  close(): void;
}) {
  const [text, setText] = useState('');
  const [format, setFormat] = useState<keyof typeof TEXT_BOX>('PARAGRAPH');
  const add = useAdd(view, onAdded);
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (!text.trim()) return;
        if (
          await add.run(
            { kind: 'TEXT', ...at(), ...TEXT_BOX[format], text: text.trim(), format },
            'The text was added to the canvas.',
          )
        )
          close();
      }}
    >
      <Stack gap="xs" w={280}>
        <NativeSelect
          label="Format"
          data={FORMATS}
          value={format}
          onChange={(e) => setFormat(e.currentTarget.value as keyof typeof TEXT_BOX)}
        />
        <Textarea
          label="Text"
          description="At most 10,000 characters."
          maxLength={10_000}
          autosize
          minRows={2}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-autofocus
        />
        <ErrorNote error={add.error} title="The text was not added" />
        <Group justify="flex-end">
          <Button type="submit" size="compact-sm" loading={add.busy} disabled={!text.trim()}>
            Add to canvas
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A group: a titled frame in a colour, to gather items. */
function GroupForm({
  view,
  at,
  onAdded,
  close,
}: {
  view: ProjectViewData;
  at: () => { x: number; y: number };
  onAdded(): void;
  close(): void;
}) {
  const [title, setTitle] = useState('');
  const [color, setColor] = useState(GROUP_COLORS[0]!);
  const add = useAdd(view, onAdded);
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (
          await add.run(
            { kind: 'GROUP', ...at(), width: 560, height: 320, title: title.trim(), color },
            'The group was added to the canvas.',
          )
        )
          close();
      }}
    >
      <Stack gap="xs" w={280}>
        <TextInput
          label="Title"
          maxLength={200}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          data-autofocus
        />
        <ColorInput
          label="Colour"
          format="hex"
          swatches={GROUP_COLORS}
          value={color}
          onChange={setColor}
          withEyeDropper={false}
        />
        <ErrorNote error={add.error} title="The group was not added" />
        <Group justify="flex-end">
          <Button
            type="submit"
            size="compact-sm"
            loading={add.busy}
            disabled={!/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)}
          >
            Add group
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const PICK = {
  NOTE: `query BrowseCanvasPickNotes($projectId: ID!) { list: notes(projectId: $projectId, first: 200, orderBy: CREATED_DESC) { nodes { id title } } }`,
  INSIGHT: `query BrowseCanvasPickInsights($projectId: ID!) { list: insights(projectId: $projectId, first: 200, orderBy: CREATED_DESC) { nodes { id title } } }`,
  HIGHLIGHT: `query BrowseCanvasPickHighlights($projectId: ID!) { list: highlights(projectId: $projectId, first: 200) { nodes { id title: text } } }`,
} as const;

/** The picker: a highlight, insight or note of the project, found by typing, not yet on the canvas. */
function ReferenceForm({
  view,
  at,
  onAdded,
  close,
}: {
  view: ProjectViewData;
  at: () => { x: number; y: number };
  onAdded(): void;
  close(): void;
}) {
  const [type, setType] = useState<ViewObjectType>(view.objectType);
  const [picked, setPicked] = useState<string | null>(null);
  const list = useLoad<{ list: { nodes: Array<{ id: string; title: string }> } }>(PICK[type], {
    projectId: view.project.id,
  });
  const placed = new Set(view.canvasItems.flatMap((i) => (i.kind === 'REFERENCE' ? [i.objectId] : [])));
  const data = (list.data?.list.nodes ?? [])
    .filter((n) => !placed.has(n.id))
    .map((n) => ({ value: n.id, label: (n.title || 'Untitled').slice(0, 120) }));
  const add = useAdd(view, onAdded);
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (!picked) return;
        if (
          await add.run(
            { kind: 'REFERENCE', ...at(), objectType: type, objectId: picked },
            `The ${REF_LABEL[type].toLowerCase()} was added to the canvas.`,
          )
        )
          close();
      }}
    >
      <Stack gap="xs" w={320}>
        <NativeSelect
          label="Kind"
          data={[
            { value: 'HIGHLIGHT', label: 'Highlight' },
            { value: 'INSIGHT', label: 'Insight' },
            { value: 'NOTE', label: 'Note' },
          ]}
          value={type}
          onChange={(e) => (setType(e.currentTarget.value as ViewObjectType), setPicked(null))}
        />
        <Select
          label={REF_LABEL[type]}
          placeholder={
            list.loading
              ? 'Loading…'
              : data.length
                ? 'Type to find one'
                : `No ${REF_LABEL[type].toLowerCase()}s left to add`
          }
          data={data}
          value={picked}
          onChange={setPicked}
          searchable
          nothingFoundMessage="Nothing matches"
          comboboxProps={{ withinPortal: false }}
          data-autofocus
        />
        <ErrorNote error={add.error ?? list.error} title="The item was not added" />
        <Group justify="flex-end">
          <Button type="submit" size="compact-sm" loading={add.busy} disabled={!picked}>
            Add to canvas
          </Button>
        </Group>
      </Stack>
    </form>
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
  item.kind === 'TEXT'
    ? `text “${item.text.slice(0, 30)}”`
    : item.kind === 'GROUP'
      ? `group “${item.title}”`
      : item.kind === 'REFERENCE'
        ? REF_LABEL[item.objectType].toLowerCase()
        : 'rectangle';

/** Changes a text item's words and format, or a group's title and colour. */
function EditItem({
  item,
  onClose,
  onSave,
}: {
  item: Extract<CanvasItem, { kind: 'TEXT' | 'GROUP' }>;
  onClose(): void;
  onSave(input: Record<string, unknown>): void;
}) {
  const [text, setText] = useState(item.kind === 'TEXT' ? item.text : item.title);
  const [format, setFormat] = useState(item.kind === 'TEXT' ? item.format : 'PARAGRAPH');
  const [color, setColor] = useState(item.kind === 'GROUP' ? item.color : GROUP_COLORS[0]!);
  return (
    <Modal opened onClose={onClose} title={item.kind === 'TEXT' ? 'Edit text' : 'Edit group'}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave(item.kind === 'TEXT' ? { text, format } : { title: text.trim(), color });
        }}
      >
        <Stack gap="sm">
          {item.kind === 'TEXT' ? (
            <>
              <NativeSelect
                label="Format"
                data={FORMATS}
                value={format}
                onChange={(e) => setFormat(e.currentTarget.value as typeof format)}
              />
              <Textarea
                label="Text"
                maxLength={10_000}
                autosize
                minRows={2}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                data-autofocus
              />
            </>
          ) : (
            <>
              <TextInput
                label="Title"
                maxLength={200}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                data-autofocus
              />
              <ColorInput
                label="Colour"
                format="hex"
                swatches={GROUP_COLORS}
                value={color}
                onChange={setColor}
                withEyeDropper={false}
              />
            </>
          )}
          <Group justify="flex-end">
            <Button type="submit">Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The handle at an item's lower right corner: drag it to resize, or focus it and use the arrow
 * keys (Shift for bigger steps). The size is saved once the drag ends or the keys stop.
 */
function ResizeHandle({
  item,
  size,
  onResize,
  onCommit,
}: {
  item: CanvasItem;
  size: { width: number; height: number };
  onResize(size: { width: number; height: number } | null): void;
  onCommit(size: { width: number; height: number }): void;
}) {
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  return (
    <div
      role="button"
      tabIndex={0}
      aria-label={`Resize ${itemName(item)}: ${size.width} by ${size.height}, arrow keys change it`}
      data-resize-handle
      style={{
        position: 'absolute',
        right: -6,
        bottom: -6,
        width: 14,
        height: 14,
        borderRadius: 3,
        background: '#fff',
        border: '2px solid var(--mantine-color-indigo-6)',
        cursor: 'nwse-resize',
        zIndex: 2,
      }}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault();
        e.stopPropagation();
        const el = e.currentTarget;
        el.setPointerCapture(e.pointerId);
        const start = { x: e.clientX, y: e.clientY };
        let last = size;
        const move = (ev: PointerEvent) => {
          last = clampSize({ width: size.width + ev.clientX - start.x, height: size.height + ev.clientY - start.y });
          onResize(last);
        };
        const up = () => {
          el.removeEventListener('pointermove', move);
          el.removeEventListener('pointerup', up);
          if (last.width === size.width && last.height === size.height) return onResize(null);
          onCommit(last);
        };
        el.addEventListener('pointermove', move);
        el.addEventListener('pointerup', up);
      }}
      onKeyDown={(e) => {
        const step = e.shiftKey ? RESIZE.bigKeyStep : RESIZE.keyStep;
        const by = { ArrowRight: [step, 0], ArrowLeft: [-step, 0], ArrowDown: [0, step], ArrowUp: [0, -step] }[e.key];
        if (!by) return;
        e.preventDefault();
        e.stopPropagation();
        const next = clampSize({ width: size.width + by[0]!, height: size.height + by[1]! });
        onResize(next);
        clearTimeout(pending.current ?? undefined);
        pending.current = setTimeout(() => onCommit(next), 500);
      }}
    />
  );
}

/** Width and height typed in: the menu's way to resize. */
function ResizeItem({
  item,
  size,
  onClose,
  onSave,
}: {
  item: CanvasItem;
  size: { width: number; height: number };
  onClose(): void;
  onSave(size: { width: number; height: number }): void;
}) {
  const [width, setWidth] = useState<number | string>(size.width);
  const [height, setHeight] = useState<number | string>(size.height);
  const valid = (v: number | string, min: number) => typeof v === 'number' && v >= min && v <= RESIZE.max;
  return (
    <Modal opened onClose={onClose} title={`Resize ${itemName(item)}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid(width, RESIZE.min.width) && valid(height, RESIZE.min.height))
            onSave(clampSize({ width: Number(width), height: Number(height) }));
        }}
      >
        <Stack gap="sm">
          <Group grow>
            <NumberInput
              label="Width"
              description={`${RESIZE.min.width} to ${RESIZE.max.toLocaleString()}`}
              min={RESIZE.min.width}
              max={RESIZE.max}
              value={width}
              onChange={setWidth}
              allowDecimal={false}
              data-autofocus
            />
            <NumberInput
              label="Height"
              description={`${RESIZE.min.height} to ${RESIZE.max.toLocaleString()}`}
              min={RESIZE.min.height}
              max={RESIZE.max}
              value={height}
              onChange={setHeight}
              allowDecimal={false}
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" disabled={!valid(width, RESIZE.min.width) || !valid(height, RESIZE.min.height)}>
              Save size
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

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
  const nudge = (dx: number, dy: number) =>
    void call(UPDATE_ITEM, { id: item.id, input: { x: item.x + dx, y: item.y + dy } });
  const [editing, setEditing] = useState(false);
  const [resizing, setResizing] = useState(false);
  return (
    <>
      {resizing && (
        <ResizeItem
          item={item}
          size={sizeOf(item)}
          onClose={() => setResizing(false)}
          onSave={(size) => void call(UPDATE_ITEM, { id: item.id, input: size }).then(() => setResizing(false))}
        />
      )}
      {editing && (item.kind === 'TEXT' || item.kind === 'GROUP') && (
        <EditItem
          item={item}
          onClose={() => setEditing(false)}
          onSave={(input) => void call(UPDATE_ITEM, { id: item.id, input }).then(() => setEditing(false))}
        />
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            size="sm"
            variant="white"
            color="gray"
            aria-label={`Actions for ${itemName(item)}`}
            style={{ position: 'absolute', top: 2, right: 2, zIndex: 1 }}
          >
            <IconDots size={14} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {(item.kind === 'TEXT' || item.kind === 'GROUP') && (
            <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={() => setEditing(true)}>
              {item.kind === 'TEXT' ? 'Edit text' : 'Edit group'}
            </Menu.Item>
          )}
          <Menu.Item onClick={() => setResizing(true)}>Resize…</Menu.Item>
          <Menu.Item onClick={() => nudge(-STEP, 0)}>Move left</Menu.Item>
          <Menu.Item onClick={() => nudge(STEP, 0)}>Move right</Menu.Item>
          <Menu.Item onClick={() => nudge(0, -STEP)}>Move up</Menu.Item>
          <Menu.Item onClick={() => nudge(0, STEP)}>Move down</Menu.Item>
          <Menu.Divider />
          <Menu.Item
            leftSection={<IconEyeOff size={14} aria-hidden />}
            onClick={() => void call(UPDATE_ITEM, { id: item.id, input: { hidden: true } })}
          >
            Hide
          </Menu.Item>
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => void call(REMOVE_ITEM, { id: item.id })}
          >
            Remove from canvas
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
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
  const [dragging, setDragging] = useState<{ id: string; dx: number; dy: number } | null>(null);
  // The size an item is being resized to, shown until the canvas comes back with it saved.
  const [sizing, setSizing] = useState<{ id: string; width: number; height: number } | null>(null);
  const shownSize = (item: CanvasItem) => (sizing?.id === item.id ? sizing : sizeOf(item));
  const resize = (item: CanvasItem, size: { width: number; height: number }) => {
    setSizing({ id: item.id, ...size });
    void graphql(UPDATE_ITEM, { id: item.id, input: size }).then(onChanged, (err: unknown) => {
      notifyError(err, 'The item was not resized');
      setSizing(null);
    });
  };
  // The canvas came back: what it says is the size now.
  useEffect(() => setSizing(null), [view.canvasItems]);
  // Dragging an item moves it (its menu moves it by a grid step from the keyboard).
  const startDrag = (e: ReactPointerEvent<HTMLDivElement>, item: CanvasItem) => {
    // Only the item itself: its menu's dialogs render elsewhere in the page but bubble here through React.
    if (
      !e.currentTarget.contains(e.target as Node) ||
      (e.target as HTMLElement).closest('a, button, input, textarea, [data-resize-handle]') ||
      e.button !== 0
    )
      return;
    e.preventDefault();
    const el = e.currentTarget;
    const start = { x: e.clientX, y: e.clientY };
    el.setPointerCapture(e.pointerId);
    let delta = { dx: 0, dy: 0 };
    const move = (ev: PointerEvent) => {
      delta = { dx: Math.round(ev.clientX - start.x), dy: Math.round(ev.clientY - start.y) };
      setDragging({ id: item.id, ...delta });
    };
    const up = () => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      if (Math.abs(delta.dx) + Math.abs(delta.dy) < 3) return setDragging(null);
      void graphql(UPDATE_ITEM, { id: item.id, input: { x: item.x + delta.dx, y: item.y + delta.dy } })
        .then(onChanged, (err: unknown) => notifyError(err, 'The item was not moved'))
        .finally(() => setDragging(null));
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
  };
  // New items go to the staging area when the canvas has one.
  const next = () => {
    if (view.canvas.stagingArea) return view.canvas.stagingArea;
    if (!items.length) return { x: 0, y: 0 };
    // Below everything, at the left edge of what is in sight, so nothing new covers older items.
    const el = scroller.current;
    return { x: Math.round((el?.scrollLeft ?? 0) + minX), y: Math.round(maxY + 32) };
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {items.length === 1 ? '1 item' : `${items.length} items`} on the canvas
        </Text>
        <Group gap="xs">
          {view.canEdit && hidden.length > 0 && (
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconEye size={14} aria-hidden />}
              onClick={() => void showHidden()}
            >
              Show {hidden.length === 1 ? '1 hidden item' : `${hidden.length} hidden items`}
            </Button>
          )}
          {view.canEdit && (
            <>
              <AddPopover label="Add item">
                {(close) => <ReferenceForm view={view} at={next} onAdded={onChanged} close={close} />}
              </AddPopover>
              <AddPopover label="Add text">
                {(close) => <TextForm view={view} at={next} onAdded={onChanged} close={close} />}
              </AddPopover>
              <AddPopover label="Add group">
                {(close) => <GroupForm view={view} at={next} onAdded={onChanged} close={close} />}
              </AddPopover>
              <Button
                variant="default"
                size="compact-sm"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() =>
                  void graphql(ADD_CANVAS_ITEM, {
                    viewId: view.id,
                    input: { kind: 'RECTANGLE', ...next(), width: 240, height: 160 },
                  }).then(onChanged, (err: unknown) => notifyError(err, 'The rectangle was not added'))
                }
              >
                Add rectangle
              </Button>
            </>
          )}
        </Group>
      </Group>
      <Box
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label="Canvas, scroll to see every item"
        style={{
          overflow: 'auto',
          height: 640,
          border: '1px solid var(--mantine-color-gray-3)',
          borderRadius: 8,
          backgroundColor: '#fafbfc',
          backgroundImage: 'radial-gradient(#dee2e6 1px, transparent 1px)',
          backgroundSize: '20px 20px',
        }}
      >
        <Box pos="relative" style={{ width, height, minWidth: '100%', minHeight: '100%' }}>
          {items.map((item) => (
            <Box
              key={item.id}
              pos="absolute"
              style={{
                left: item.x - minX + PADDING + (dragging?.id === item.id ? dragging.dx : 0),
                top: item.y - minY + PADDING + (dragging?.id === item.id ? dragging.dy : 0),
                width: shownSize(item).width,
                height: shownSize(item).height,
                cursor: view.canEdit ? 'move' : undefined,
                zIndex: dragging?.id === item.id ? 5 : undefined,
              }}
              data-canvas-item={item.kind}
              onPointerDown={view.canEdit ? (e) => startDrag(e, item) : undefined}
            >
              <CanvasShape item={item} refs={refs} size={shownSize(item)} />
              {view.canEdit && <ItemMenu item={item} onChanged={onChanged} />}
              {view.canEdit && (
                <ResizeHandle
                  item={item}
                  size={shownSize(item)}
                  onResize={(size) => setSizing(size && { id: item.id, ...size })}
                  onCommit={(size) => resize(item, size)}
                />
              )}
            </Box>
          ))}
          {!items.length && (
            <Text c="dimmed" size="sm" pos="absolute" top={PADDING} left={PADDING}>
              This canvas is empty.
              {view.canEdit ? ' Add highlights, insights, notes, text and groups to lay out your thinking.' : ''}
            </Text>
          )}
        </Box>
      </Box>
    </Stack>
  );
}
