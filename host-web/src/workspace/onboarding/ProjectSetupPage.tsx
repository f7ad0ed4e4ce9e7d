import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../common/ErrorAlert.tsx';
import { AuthLayout } from '../../layout/AuthLayout.tsx';
import { useServices } from '../../session/SessionProvider.tsx';
import { useWorkspace } from '../../session/WorkspaceProvider.tsx';
import { createSample, SAMPLE_NOTE_TITLE } from './sample.ts';

const TITLE_LIMIT = 200;

/** /onboarding/project-setup: the workspace's first project and note, with sample content to delete later. */
export function ProjectSetupPage() {
  const { client } = useServices();
  const { can } = useWorkspace();
  const [title, setTitle] = useState('My first project');
  const [sample, setSample] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ projectId: string; noteId: string | null } | null>(null);
  const [sampleRemoved, setSampleRemoved] = useState(false);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const { createProject } = await client.request<{ createProject: { id: string } }>(
        'mutation($t: String!) { createProject(input: { title: $t }) { id } }',
        { t: title.trim() },
      );
      let noteId: string | null = null;
      if (sample) noteId = await createSample(client.request.bind(client), createProject.id);
      else
        noteId = (
          await client.request<{ createNote: { id: string } }>(
            'mutation($p: ID!) { createNote(input: { projectId: $p, title: "First note" }) { id } }',
            { p: createProject.id },
          )
        ).createNote.id;
      setDone({ projectId: createProject.id, noteId });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function removeSample() {
    if (!done?.noteId) return;
    try {
      await client.request('mutation($id: ID!) { deleteNote(id: $id) }', { id: done.noteId });
      setSampleRemoved(true);
    } catch (err) {
      setError(err);
    }
  }

  if (!can('projects:create')) {
    return (
      <AuthLayout
        title="Your first project"
        subtitle="Your role cannot create projects."
        width={560}
        footer={
          <Anchor component={Link} to="/home" fw={600}>
            Go to home
          </Anchor>
        }
      >
        <Text size="sm">Ask a workspace admin or a contributor to make a project and give you access.</Text>
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout
        title="Your project is ready"
        subtitle={sample ? 'With a sample interview, its highlights and tags.' : 'With a first note to write in.'}
        width={560}
      >
        <Stack gap="md" align="flex-start">
          {sample && !sampleRemoved && (
            <Text size="sm">
              “{SAMPLE_NOTE_TITLE}” shows highlights and tags at work. Delete it whenever you like, here or from the
              project.
            </Text>
          )}
          {sampleRemoved && (
            <Text size="sm" role="status">
              The sample note is in the trash.
            </Text>
          )}
          <ErrorAlert error={error} />
          <Group>
            <Button
              component={Link}
              to={done.noteId && !sampleRemoved ? `/data/${done.noteId}` : `/projects/${done.projectId}`}
            >
              {done.noteId && !sampleRemoved ? 'Open the note' : 'Open the project'}
            </Button>
            <Button component={Link} to={`/projects/${done.projectId}`} variant="default">
              Go to the project
            </Button>
            {sample && !sampleRemoved && (
              <Button variant="subtle" color="red" onClick={() => void removeSample()}>
                Delete the sample note
              </Button>
            )}
          </Group>
        </Stack>
      </AuthLayout>
    );
  }

  const tooLong = title.trim().length > TITLE_LIMIT;
  return (
    <AuthLayout
      title="Your first project"
      subtitle="A project holds the notes, highlights and insights of one piece of research."
      width={560}
      footer={
        <Anchor component={Link} to="/onboarding/getting-started" fw={600}>
          Back to getting started
        </Anchor>
      }
    >
      <Stack gap="md">
        <TextInput
          label="Project title"
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          required
          maxLength={TITLE_LIMIT}
          error={tooLong ? `A project title can be at most ${TITLE_LIMIT} characters long.` : null}
        />
        <Checkbox
          label="Add a sample interview with highlights and tags (you can delete it)"
          checked={sample}
          onChange={(e) => setSample(e.currentTarget.checked)}
        />
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button onClick={() => void create()} loading={busy} disabled={!title.trim() || tooLong}>
            Create project
          </Button>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
