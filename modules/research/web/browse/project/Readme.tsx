import { Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBook2, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { q, type Project } from '../api.ts';
import { useAction } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, notifyDone } from '../ui/layout.tsx';
import { RichText, docFromText, plainTextOf } from '../ui/RichText.tsx';

/** /projects/{projectId}/readme: what the project is about, for anyone opening it. */
export function Readme({ project, onChanged }: { project: Project; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const save = useAction((readme: unknown) => graphql(q.updateProject, { id: project.id, input: { readme } }));
  const text = plainTextOf(project.readme).trim();
  const editable = project.myAccess.canEdit;

  function start() {
    setDraft(plainTextOf(project.readme));
    save.reset();
    setEditing(true);
  }

  if (editing) {
    return (
      <Paper withBorder p="lg">
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (await save.run(draft.trim() ? docFromText(draft) : null)) {
              notifyDone('The readme was saved.');
              setEditing(false);
              onChanged();
            }
          }}
        >
          <Stack gap="sm">
            <Textarea
              label="Readme"
              description="Say what this project is for, who took part and where to start. Leave a blank line between paragraphs."
              autosize
              minRows={8}
              maxRows={30}
              value={draft}
              onChange={(e) => setDraft(e.currentTarget.value)}
              autoFocus
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

  if (!text) {
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
          <Button variant="default" size="compact-sm" leftSection={<IconPencil size={14} aria-hidden />} onClick={start}>
            Edit
          </Button>
        )}
      </Group>
      <RichText doc={project.readme} />
    </Paper>
  );
}
