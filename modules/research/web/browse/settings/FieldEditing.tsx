import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyDone, notifyError } from '../ui/layout.tsx';

const UPDATE_FIELD = `mutation BrowseUpdateField($input: UpdateFieldInput!) { updateField(input: $input) { id label } }`;
const UPDATE_OPTION = `mutation BrowseUpdateFieldOption($id: ID!, $input: UpdateFieldOptionInput!) { updateFieldOption(id: $id, input: $input) { id label } }`;
const DELETE_OPTION = `mutation BrowseDeleteFieldOption($id: ID!) { deleteFieldOption(id: $id) }`;
const LABEL_MAX = 200;

/** A small dialog that renames one thing; the server's refusal (a name in use, too long) is shown as it says it. */
function RenameModal({
  title,
  label,
  initial,
  opened,
  onClose,
  onSave,
}: {
  title: string;
  label: string;
  initial: string;
  opened: boolean;
  onClose(): void;
  onSave(value: string): Promise<boolean>;
}) {
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const problem = !value.trim()
    ? `The ${label.toLowerCase()} cannot be empty.`
    : value.trim().length > LABEL_MAX
      ? `At most ${LABEL_MAX} characters.`
      : null;
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (problem) return;
          setBusy(true);
          if (await onSave(value.trim())) onClose();
          setBusy(false);
        }}
      >
        <Stack>
          <TextInput
            label={label}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={problem}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy} disabled={Boolean(problem)}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function useCall() {
  const { graphql } = useFieldbook();
  return async (query: string, variables: Record<string, unknown>, done: string, failure: string): Promise<boolean> => {
    try {
      await graphql(query, variables);
      notifyDone(done);
      return true;
    } catch (err) {
      notifyError(err, failure);
      return false;
    }
  };
}

/** A field's name, renamed in place by people who may edit the project's fields. */
export function FieldLabel({
  field,
  editable,
  onChanged,
}: {
  field: { id: string; label: string };
  editable: boolean;
  onChanged(): void;
}) {
  const call = useCall();
  const [open, setOpen] = useState(false);
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" fw={500}>
        {field.label}
      </Text>
      {editable && (
        <Tooltip label="Rename field">
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={`Rename field ${field.label}`}
            onClick={() => setOpen(true)}
          >
            <IconPencil size={14} aria-hidden />
          </ActionIcon>
        </Tooltip>
      )}
      {open && (
        <RenameModal
          opened
          title="Rename field"
          label="Field name"
          initial={field.label}
          onClose={() => setOpen(false)}
          onSave={async (label) => {
            const ok = await call(
              UPDATE_FIELD,
              { input: { id: field.id, label } },
              `The field is now called ${label}.`,
              'The field was not renamed',
            );
            if (ok) onChanged();
            return ok;
          }}
        />
      )}
    </Group>
  );
}

/** An option of a select field: renamed or deleted from its menu (values that used it lose it). */
export function OptionBadge({
  option,
  editable,
  canDelete,
  onChanged,
}: {
  option: { id: string; label: string; color: string };
  editable: boolean;
  canDelete: boolean;
  onChanged(): void;
}) {
  const call = useCall();
  const [renaming, setRenaming] = useState(false);
  const badge = (
    <Badge
      variant="outline"
      radius="sm"
      color="gray"
      tt="none"
      leftSection={
        <span
          aria-hidden
          style={{ width: 8, height: 8, borderRadius: 99, background: option.color, display: 'inline-block' }}
        />
      }
    >
      {option.label}
    </Badge>
  );
  if (!editable) return badge;
  return (
    <>
      <Menu position="bottom-start" shadow="md">
        <Menu.Target>
          <UnstyledButton aria-label={`Option ${option.label}: rename or delete`} style={{ borderRadius: 4 }}>
            {badge}
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setRenaming(true)}>Rename option</Menu.Item>
          {canDelete && (
            <Menu.Item
              color="red"
              onClick={() =>
                void call(
                  DELETE_OPTION,
                  { id: option.id },
                  `The option ${option.label} was deleted.`,
                  'The option was not deleted',
                ).then((ok) => ok && onChanged())
              }
            >
              Delete option
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {renaming && (
        <RenameModal
          opened
          title="Rename option"
          label="Option name"
          initial={option.label}
          onClose={() => setRenaming(false)}
          onSave={async (label) => {
            const ok = await call(
              UPDATE_OPTION,
              { id: option.id, input: { label } },
              `The option is now called ${label}.`,
              'The option was not renamed',
            );
            if (ok) onChanged();
            return ok;
          }}
        />
      )}
    </>
  );
}
