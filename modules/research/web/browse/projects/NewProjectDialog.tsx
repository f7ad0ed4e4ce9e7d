import { Button, ColorSwatch, Group, Modal, Select, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { q, type FolderSummary } from '../api.ts';
import { ErrorNote } from '../ui/layout.tsx';
import { useAction } from '../ui/hooks.ts';
import { PROJECT_COLORS, PROJECT_ICONS, ProjectIcon } from '../ui/look.tsx';

export const TITLE_MAX = 200;

/** A radio group of colour swatches, usable with the keyboard. */
export function ColorPicker({
  value,
  onChange,
  label,
  disabled,
}: {
  value: string;
  onChange(v: string): void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <div role="radiogroup" aria-label={label}>
      <Text size="sm" fw={500} mb={6}>
        {label}
      </Text>
      <Group gap={8}>
        {PROJECT_COLORS.map((c) => (
          <UnstyledButton
            key={c}
            role="radio"
            aria-checked={value === c}
            aria-label={`Colour ${c}`}
            disabled={disabled}
            onClick={() => onChange(c)}
            style={{ borderRadius: 999 }}
          >
            <ColorSwatch color={c} size={26} style={{ color: '#fff', cursor: disabled ? 'default' : 'pointer' }}>
              {value === c && <IconCheck size={14} aria-hidden />}
            </ColorSwatch>
          </UnstyledButton>
        ))}
      </Group>
    </div>
  );
}

export const iconOptions = Object.entries(PROJECT_ICONS).map(([value, { label }]) => ({ value, label }));

export function folderOptions(folders: readonly FolderSummary[]) {
  return [{ value: '', label: 'No folder' }, ...folders.map((f) => ({ value: f.id, label: f.path || f.title }))];
}

/** "New project": title (1..200), colour, icon and folder; the server's errors (e.g. the 200-project limit) are shown in the dialog. */
export function NewProjectDialog({
  opened,
  onClose,
  onCreated,
  folders,
  defaultFolderId,
}: {
  opened: boolean;
  onClose(): void;
  onCreated(project: { id: string; title: string }): void;
  folders: readonly FolderSummary[];
  defaultFolderId?: string | null;
}) {
  const { graphql } = useFieldbook();
  const [title, setTitle] = useState('');
  const [color, setColor] = useState<string>(PROJECT_COLORS[0]);
  const [icon, setIcon] = useState('folder');
  const [folderId, setFolderId] = useState(defaultFolderId ?? '');
  const [touched, setTouched] = useState(false);
  const create = useAction((input: Record<string, unknown>) =>
    graphql<{ createProject: { id: string; title: string } }>(q.createProject, { input }),
  );

  useEffect(() => {
    if (opened) {
      setTitle('');
      setTouched(false);
      setFolderId(defaultFolderId ?? '');
      create.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, defaultFolderId]);

  const trimmed = title.trim();
  const problem = !trimmed
    ? 'Give the project a title.'
    : trimmed.length > TITLE_MAX
      ? `A project title can have at most ${TITLE_MAX} characters.`
      : null;

  async function submit() {
    setTouched(true);
    if (problem) return;
    const res = await create.run({ title: trimmed, color, icon, folderId: folderId || null });
    if (res) onCreated(res.createProject);
  }

  return (
    <Modal opened={opened} onClose={onClose} title="New project" size="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <Group align="flex-start" wrap="nowrap" gap="sm">
            <ProjectIcon icon={icon} color={color} size={36} />
            <TextInput
              label="Title"
              placeholder="e.g. Onboarding interviews"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              onBlur={() => setTouched(true)}
              error={touched ? problem : null}
              description={`${trimmed.length} / ${TITLE_MAX}`}
              required
              data-autofocus
              style={{ flex: 1 }}
            />
          </Group>
          <ColorPicker label="Colour" value={color} onChange={setColor} />
          <Select
            label="Icon"
            data={iconOptions}
            value={icon}
            onChange={(v) => setIcon(v ?? 'folder')}
            allowDeselect={false}
          />
          <Select
            label="Folder"
            data={folderOptions(folders)}
            value={folderId}
            onChange={(v) => setFolderId(v ?? '')}
            allowDeselect={false}
            searchable
            nothingFoundMessage="No folder with that name"
          />
          <ErrorNote error={create.error} title="The project was not created" />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.busy}>
              Create project
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
