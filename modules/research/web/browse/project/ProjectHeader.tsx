import { ActionIcon, Button, ColorSwatch, Group, Menu, TextInput, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconCheck, IconChevronDown, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { q, type Project, type ProjectStatus } from '../api.ts';
import { errorLine } from '../ui/errors.ts';
import { useAction } from '../ui/hooks.ts';
import { notifyError, notifyDone } from '../ui/layout.tsx';
import { PROJECT_COLORS, ProjectIcon, STATUS_LABEL, StatusBadge } from '../ui/look.tsx';
import { TITLE_MAX } from '../projects/NewProjectDialog.tsx';

/** The project's title (editable in place), status and colour. */
export function ProjectHeader({ project, onChanged }: { project: Project; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const editable = project.myAccess.canEdit;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(project.title);
  const save = useAction((input: Record<string, unknown>) => graphql(q.updateProject, { id: project.id, input }));

  async function update(input: Record<string, unknown>, done?: string) {
    try {
      await graphql(q.updateProject, { id: project.id, input });
      if (done) notifyDone(done);
      onChanged();
    } catch (err) {
      notifyError(err, 'The project was not changed');
    }
  }

  async function rename() {
    const title = draft.trim();
    if (!title || title.length > TITLE_MAX) return;
    if (title === project.title) return setEditing(false);
    if (await save.run({ title })) {
      setEditing(false);
      onChanged();
    }
  }

  const titleProblem = !draft.trim()
    ? 'The title cannot be empty.'
    : draft.trim().length > TITLE_MAX
      ? `At most ${TITLE_MAX} characters.`
      : null;

  return (
    <Group gap="sm" wrap="nowrap" align="center">
      {editable ? (
        <Menu position="bottom-start" shadow="md">
          <Menu.Target>
            <Tooltip label="Change colour">
              <UnstyledButton aria-label="Project colour" style={{ borderRadius: 8 }}>
                <ProjectIcon icon={project.icon} color={project.color} size={40} />
              </UnstyledButton>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Colour</Menu.Label>
            <Group gap={6} p={6} maw={200}>
              {PROJECT_COLORS.map((c) => (
                <Menu.Item key={c} p={0} w="auto" onClick={() => void update({ color: c })} aria-label={`Colour ${c}`}>
                  <ColorSwatch color={c} size={24} style={{ color: '#fff' }}>
                    {project.color === c && <IconCheck size={12} aria-hidden />}
                  </ColorSwatch>
                </Menu.Item>
              ))}
            </Group>
          </Menu.Dropdown>
        </Menu>
      ) : (
        <ProjectIcon icon={project.icon} color={project.color} size={40} />
      )}

      {editing ? (
        <form
          style={{ flex: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label="Project title"
              value={draft}
              onChange={(e) => setDraft(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setEditing(false);
              }}
              error={titleProblem ?? (save.error ? errorLine(save.error) : null)}
              autoFocus
              size="md"
              style={{ flex: 1 }}
              maxLength={TITLE_MAX + 50}
            />
            <Button type="submit" loading={save.busy} disabled={Boolean(titleProblem)}>
              Save
            </Button>
            <Button variant="subtle" color="gray" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </Group>
        </form>
      ) : (
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <Title order={1} fz={26} lh={1.2} style={{ wordBreak: 'break-word' }}>
            {project.title}
          </Title>
          {editable && (
            <Tooltip label="Rename">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label="Rename project"
                onClick={() => {
                  setDraft(project.title);
                  save.reset();
                  setEditing(true);
                }}
              >
                <IconPencil size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      )}

      {!editing &&
        (editable ? (
          <Menu position="bottom-start" shadow="md">
            <Menu.Target>
              <UnstyledButton aria-label={`Status: ${STATUS_LABEL[project.status]}. Change status`}>
                <Group gap={2} wrap="nowrap">
                  <StatusBadge status={project.status} />
                  <IconChevronDown size={14} aria-hidden />
                </Group>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              {(Object.keys(STATUS_LABEL) as ProjectStatus[]).map((s) => (
                <Menu.Item
                  key={s}
                  onClick={() => void update({ status: s }, `The project is now ${STATUS_LABEL[s].toLowerCase()}.`)}
                  rightSection={project.status === s ? <IconCheck size={14} aria-hidden /> : null}
                >
                  {STATUS_LABEL[s]}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : (
          <StatusBadge status={project.status} />
        ))}
    </Group>
  );
}
