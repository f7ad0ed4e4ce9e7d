import { Button, Group, Modal, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { q, type FolderSummary, type Project, type ProjectStatus } from '../api.ts';
import { useAction, useCan, useLoad } from '../ui/hooks.ts';
import { ErrorNote, notifyDone } from '../ui/layout.tsx';
import { STATUS_LABEL } from '../ui/look.tsx';
import { ColorPicker, TITLE_MAX, folderOptions, iconOptions } from '../projects/NewProjectDialog.tsx';

export function GeneralSettings({ project, onChanged }: { project: Project; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const navigate = useNavigate();
  const folders = useLoad<{ folders: FolderSummary[] }>(q.folders);
  const [title, setTitle] = useState(project.title);
  const [status, setStatus] = useState<ProjectStatus>(project.status);
  const [color, setColor] = useState(project.color ?? '#4c6ef5');
  const [icon, setIcon] = useState(project.icon ?? 'folder');
  const [folderId, setFolderId] = useState(project.folderId ?? '');
  const [confirming, setConfirming] = useState(false);
  const save = useAction((input: Record<string, unknown>) => graphql(q.updateProject, { id: project.id, input }));
  const remove = useAction(() => graphql(q.deleteProject, { id: project.id }));
  const readOnly = !project.myAccess.canEdit;
  const trimmed = title.trim();
  const problem = !trimmed
    ? 'The title cannot be empty.'
    : trimmed.length > TITLE_MAX
      ? `A project title can have at most ${TITLE_MAX} characters.`
      : null;

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg">
        <Title order={2} fz="lg" mb="md">
          Details
        </Title>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (problem) return;
            if (await save.run({ title: trimmed, status, color, icon, folderId: folderId || null })) {
              notifyDone('The project settings were saved.');
              onChanged();
            }
          }}
        >
          <Stack gap="md">
            <TextInput
              label="Title"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              error={problem}
              disabled={readOnly}
              description={`${trimmed.length} / ${TITLE_MAX}`}
            />
            <Select
              label="Status"
              data={(Object.keys(STATUS_LABEL) as ProjectStatus[]).map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
              value={status}
              onChange={(v) => v && setStatus(v as ProjectStatus)}
              allowDeselect={false}
              disabled={readOnly}
            />
            <ColorPicker label="Colour" value={color} onChange={setColor} disabled={readOnly} />
            <Select
              label="Icon"
              data={iconOptions}
              value={icon}
              onChange={(v) => setIcon(v ?? 'folder')}
              allowDeselect={false}
              disabled={readOnly}
            />
            <Select
              label="Folder"
              data={folderOptions(folders.data?.folders ?? [])}
              value={folderId}
              onChange={(v) => setFolderId(v ?? '')}
              allowDeselect={false}
              disabled={readOnly}
              searchable
            />
            <ErrorNote error={save.error} title="The settings were not saved" />
            {!readOnly && (
              <Group justify="flex-end">
                <Button type="submit" loading={save.busy} disabled={Boolean(problem)}>
                  Save changes
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Paper>

      {project.myAccess.canDelete && can('projects:delete') && (
        <Paper withBorder p="lg" style={{ borderColor: 'var(--mantine-color-red-3)' }}>
          <Title order={2} fz="lg" mb={4}>
            Move to trash
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            The project, with its notes, insights and highlights, goes to the trash. Managers can restore it from Trash.
          </Text>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setConfirming(true)}
          >
            Move project to trash
          </Button>
        </Paper>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Move this project to the trash?">
        <Stack>
          <Text size="sm">
            “{project.title}” and everything in it will no longer be visible to anyone. A manager can restore it from
            Trash.
          </Text>
          <ErrorNote error={remove.error} title="The project was not moved to the trash" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.busy}
              onClick={async () => {
                if (await remove.run()) {
                  notifyDone(`${project.title} was moved to the trash.`);
                  navigate('/projects');
                }
              }}
            >
              Move to trash
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
