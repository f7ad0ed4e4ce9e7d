import { Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBook2, IconPencil } from '@tabler/icons-react';
import type { Editor, JSONContent } from '@tiptap/react';
import { useCallback, useRef, useState } from 'react';
import { DocumentEditor, EditorToolbar } from '../../shared/editor.ts';
import { q, type Project } from '../api.ts';
import { useAction } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, notifyDone } from '../ui/layout.tsx';
import { plainTextOf } from '../ui/rich-text.ts';

const isDoc = (v: unknown): v is JSONContent =>
  Boolean(v) && typeof v === 'object' && (v as JSONContent).type === 'doc';

/** Whether a document has anything worth keeping: text, or a block such as a divider. */
function hasContent(doc: JSONContent | null): boolean {
  if (!doc) return false;
  if (plainTextOf(doc).trim()) return true;
  const blocks = doc.content ?? [];
  return blocks.some((b) => b.type !== 'paragraph' && b.type !== 'heading');
}

/** The editor keeps an empty paragraph after a last list or quote, to type below it; the readme need not. */
function withoutTrailingBlanks(doc: JSONContent): JSONContent {
  const blocks = [...(doc.content ?? [])];
  while (
    blocks.length > 1 &&
    blocks[blocks.length - 1]!.type === 'paragraph' &&
    !blocks[blocks.length - 1]!.content?.length
  )
    blocks.pop();
  return { ...doc, content: blocks };
}

/**
 * /projects/{projectId}/readme: what the project is about, for anyone opening it. It is rich
 * text in the editor of notes and insights, so headings, lists and quotes survive an edit;
 * people who may not edit the project read it in the same editor, read-only.
 */
export function Readme({ project, onChanged }: { project: Project; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const [editing, setEditing] = useState(false);
  const [editor, setEditor] = useState<Editor | null>(null);
  const draft = useRef<JSONContent | null>(null);
  const save = useAction((readme: unknown) => graphql(q.updateProject, { id: project.id, input: { readme } }));
  const readme = isDoc(project.readme) ? project.readme : null;
  const editable = project.myAccess.canEdit;
  const onReady = useCallback((e: Editor) => setEditor(e), []);

  function start() {
    draft.current = readme;
    save.reset();
    setEditor(null);
    setEditing(true);
  }

  if (editing) {
    return (
      <Paper withBorder p="lg">
        <form
          aria-label="Edit the readme"
          onSubmit={async (e) => {
            e.preventDefault();
            const doc = editor?.getJSON() ?? draft.current;
            if (await save.run(doc && hasContent(doc) ? withoutTrailingBlanks(doc) : null)) {
              notifyDone('The readme was saved.');
              setEditing(false);
              onChanged();
            }
          }}
        >
          <Stack gap="sm">
            <div>
              <Text fw={600}>Readme</Text>
              <Text size="sm" c="dimmed">
                Say what this project is for, who took part and where to start. Use headings, lists and quotes to give
                it shape.
              </Text>
            </div>
            <Box style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }} pb={6}>
              <EditorToolbar editor={editor} label="Readme formatting" />
            </Box>
            <DocumentEditor
              content={readme}
              editable
              label="Readme"
              placeholder="Write the readme… Type ## for a heading, - for a list, > for a quote."
              onChange={(doc) => {
                draft.current = doc;
              }}
              onReady={onReady}
              linkNotes={false}
            />
            <ErrorNote error={save.error} title="The readme was not saved" />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setEditing(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.busy}>
                Save readme
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    );
  }

  if (!hasContent(readme)) {
    return (
      <EmptyState
        icon={<IconBook2 size={24} />}
        title="No readme yet"
        action={
          editable ? (
            <Button leftSection={<IconPencil size={16} aria-hidden />} onClick={start}>
              Write the readme
            </Button>
          ) : undefined
        }
      >
        A readme tells your team what this project is about and where to start.
      </EmptyState>
    );
  }

  return (
    <Paper withBorder p="xl">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Readme</Text>
        {editable && (
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconPencil size={14} aria-hidden />}
            onClick={start}
          >
            Edit
          </Button>
        )}
      </Group>
      <DocumentEditor
        key={project.updatedAt}
        content={readme}
        editable={false}
        label="Readme"
        placeholder=""
        linkNotes={false}
      />
    </Paper>
  );
}
