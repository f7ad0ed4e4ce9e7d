import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconBlockquote, IconBold, IconH2, IconH3, IconItalic, IconList, IconListNumbers } from '@tabler/icons-react';
import type { Editor } from '@tiptap/react';
import { useEffect, useReducer, type ReactNode } from 'react';

interface Tool {
  label: string;
  icon: ReactNode;
  active(e: Editor): boolean;
  run(e: Editor): void;
}

const TOOLS: Tool[] = [
  {
    label: 'Heading',
    icon: <IconH2 size={18} aria-hidden />,
    active: (e) => e.isActive('heading', { level: 2 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(),
  },
  {
    label: 'Subheading',
    icon: <IconH3 size={18} aria-hidden />,
    active: (e) => e.isActive('heading', { level: 3 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
  },
  {
    label: 'Bold',
    icon: <IconBold size={18} aria-hidden />,
    active: (e) => e.isActive('bold'),
    run: (e) => e.chain().focus().toggleBold().run(),
  },
  {
    label: 'Italic',
    icon: <IconItalic size={18} aria-hidden />,
    active: (e) => e.isActive('italic'),
    run: (e) => e.chain().focus().toggleItalic().run(),
  },
  {
    label: 'Bulleted list',
    icon: <IconList size={18} aria-hidden />,
    active: (e) => e.isActive('bulletList'),
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: 'Numbered list',
    icon: <IconListNumbers size={18} aria-hidden />,
    active: (e) => e.isActive('orderedList'),
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    label: 'Quote',
    icon: <IconBlockquote size={18} aria-hidden />,
    active: (e) => e.isActive('blockquote'),
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
];

/**
 * Formatting buttons for a rich text editor. Each says whether it applies at the selection
 * (aria-pressed); the editor's Markdown shortcuts ("## ", "- ", "> ") keep working beside them.
 */
export function EditorToolbar({ editor, label }: { editor: Editor | null; label: string }) {
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!editor) return;
    editor.on('transaction', refresh);
    return () => {
      editor.off('transaction', refresh);
    };
  }, [editor]);
  return (
    <Group gap={4} role="toolbar" aria-label={label} wrap="wrap">
      {TOOLS.map((tool) => {
        const on = editor ? tool.active(editor) : false;
        return (
          <Tooltip key={tool.label} label={tool.label} openDelay={400}>
            <ActionIcon
              variant={on ? 'light' : 'subtle'}
              color={on ? 'indigo' : 'gray'}
              size="lg"
              aria-label={tool.label}
              aria-pressed={on}
              disabled={!editor}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => editor && tool.run(editor)}
            >
              {tool.icon}
            </ActionIcon>
          </Tooltip>
        );
      })}
    </Group>
  );
}
