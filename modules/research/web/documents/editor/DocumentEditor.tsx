import { Box, Button, Paper } from '@mantine/core';
import { IconHighlight } from '@tabler/icons-react';
import { EditorContent, useEditor, type Editor, type JSONContent } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { documentExtensions } from './extensions.ts';
import { highlightPaintKey, type PaintedHighlight } from './highlight-paint.ts';
import { selectionToOffsets, textMap } from './text-map.ts';
import './editor.css';

export interface DocumentEditorProps {
  content: JSONContent | null;
  editable: boolean;
  placeholder: string;
  label: string;
  highlights?: readonly PaintedHighlight[];
  onChange?: (doc: JSONContent, editor: Editor) => void;
  /** When given, selecting text offers a "Highlight" action with the selection's plain-text offsets. */
  onHighlight?: (span: { start: number; end: number; anchor: DOMRect }) => void;
  onReady?: (editor: Editor) => void;
  linkNotes?: boolean;
}

/** The rich text editor of notes and insights (read-only when the person may not edit). */
export function DocumentEditor({
  content,
  editable,
  placeholder,
  label,
  highlights = [],
  onChange,
  onHighlight,
  onReady,
  linkNotes,
}: DocumentEditorProps) {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editableRef = useRef(editable);
  editableRef.current = editable;
  const frame = useRef<HTMLDivElement>(null);
  const [action, setAction] = useState<{ top: number; left: number; start: number; end: number } | null>(null);

  const editor = useEditor({
    extensions: documentExtensions({ placeholder, linkNotes }),
    content: content ?? { type: 'doc', content: [{ type: 'paragraph' }] },
    editable,
    editorProps: {
      // A function, so the view recomputes it whenever the editor's state or options change:
      // aria-readonly follows `editable` without touching the view before it is mounted.
      attributes: () => ({
        class: 'fb-editor',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        'aria-readonly': editableRef.current ? 'false' : 'true',
      }),
    },
    onUpdate: ({ editor: e }) => onChangeRef.current?.(e.getJSON(), e),
  });

  useEffect(() => {
    if (editor && onReady) onReady(editor);
  }, [editor, onReady]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setEditable(editable, false);
  }, [editor, editable]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.view.dispatch(editor.state.tr.setMeta(highlightPaintKey, highlights).setMeta('addToHistory', false));
  }, [editor, highlights]);

  // The "Highlight" action follows the selection: shown above its end while it covers some text.
  const onHighlightRef = useRef(onHighlight);
  onHighlightRef.current = onHighlight;
  const offersHighlight = Boolean(onHighlight);
  useEffect(() => {
    if (!editor || !offersHighlight) return;
    const update = () => {
      const { from, to, empty } = editor.state.selection;
      const span = empty ? null : selectionToOffsets(textMap(editor.state.doc), from, to);
      const box = frame.current?.getBoundingClientRect();
      if (!span || !box) return setAction(null);
      const end = editor.view.coordsAtPos(to);
      setAction({
        top: end.top - box.top - 44,
        left: Math.min(Math.max(end.left - box.left - 50, 0), box.width - 120),
        ...span,
      });
    };
    const blur = ({ event }: { event: FocusEvent }) => {
      if (!(event.relatedTarget instanceof Node && frame.current?.contains(event.relatedTarget))) setAction(null);
    };
    editor.on('selectionUpdate', update);
    editor.on('blur', blur);
    return () => {
      editor.off('selectionUpdate', update);
      editor.off('blur', blur);
      setAction(null);
    };
  }, [editor, offersHighlight]);

  return (
    <Box ref={frame} pos="relative">
      <EditorContent editor={editor} />
      {action && offersHighlight && (
        <Paper
          shadow="md"
          radius="md"
          p={4}
          withBorder
          pos="absolute"
          top={action.top}
          left={action.left}
          style={{ zIndex: 5 }}
        >
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconHighlight size={16} aria-hidden />}
            onMouseDown={(e) => e.preventDefault()}
            onClick={(e) => {
              const anchor = (e.currentTarget as HTMLElement).getBoundingClientRect();
              onHighlightRef.current?.({ start: action.start, end: action.end, anchor });
              setAction(null);
            }}
          >
            Highlight
          </Button>
        </Paper>
      )}
    </Box>
  );
}
