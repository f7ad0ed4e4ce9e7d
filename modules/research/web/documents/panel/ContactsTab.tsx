import {
  ActionIcon,
  Alert,
  Avatar,
  Group,
  Stack,
  Text,
  Tooltip,
  Combobox,
  InputBase,
  useCombobox,
  Loader,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ADD_PERSON, CREATE_PERSON, PEOPLE, REMOVE_PERSON, type Person } from '../api.ts';
import { errorMessage } from '../errors.ts';
import { EmptyState } from './EmptyState.tsx';

/** The people a note is about: search the workspace's people, add a new one, or remove. */
export function ContactsTab({
  kind,
  noteId,
  people,
  canEdit,
  onChange,
}: {
  kind: 'note' | 'insight';
  noteId: string;
  people: readonly Person[];
  canEdit: boolean;
  onChange: (people: Person[]) => void;
}) {
  const host = useFieldbook();
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const found = useGraphQL<{ people: { nodes: Person[] } }>(PEOPLE, { search: search.trim() || null });

  if (kind === 'insight') {
    return (
      <EmptyState title="Contacts come from notes">
        People are linked to notes; the notes an insight cites show who said what.
      </EmptyState>
    );
  }

  const run = async (fn: () => Promise<Person[]>) => {
    setError(null);
    try {
      onChange(await fn());
      setSearch('');
      combobox.closeDropdown();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const add = (personId: string) =>
    run(
      async () =>
        (await host.graphql<{ addPersonToNote: { people: Person[] } }>(ADD_PERSON, { noteId, personId }))
          .addPersonToNote.people,
    );
  const remove = (personId: string) =>
    run(
      async () =>
        (await host.graphql<{ removePersonFromNote: { people: Person[] } }>(REMOVE_PERSON, { noteId, personId }))
          .removePersonFromNote.people,
    );
  const createAndAdd = () =>
    run(async () => {
      const p = (await host.graphql<{ createPerson: Person }>(CREATE_PERSON, { input: { name: search.trim() } }))
        .createPerson;
      return (await host.graphql<{ addPersonToNote: { people: Person[] } }>(ADD_PERSON, { noteId, personId: p.id }))
        .addPersonToNote.people;
    });

  const linked = new Set(people.map((p) => p.id));
  const options = (found.data?.people.nodes ?? []).filter((p) => !linked.has(p.id));
  const exact = options.some((p) => p.name.toLowerCase() === search.trim().toLowerCase());

  return (
    <Stack gap="md">
      {people.length ? (
        <Stack
          gap="xs"
          component="ul"
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
          aria-label="People in this note"
        >
          {people.map((p) => (
            <Group component="li" key={p.id} justify="space-between" wrap="nowrap">
              <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                <Avatar size={30} radius="xl" color="teal" aria-hidden>
                  {p.name.slice(0, 1).toUpperCase()}
                </Avatar>
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} truncate>
                    {p.name}
                  </Text>
                  {(p.company || p.email) && (
                    <Text size="xs" c="dimmed" truncate>
                      {[p.company, p.email].filter(Boolean).join(' · ')}
                    </Text>
                  )}
                </div>
              </Group>
              {canEdit && (
                <Tooltip label="Remove from note">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-label={`Remove ${p.name} from this note`}
                    onClick={() => void remove(p.id)}
                  >
                    <IconX size={14} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          ))}
        </Stack>
      ) : (
        <EmptyState title="No people yet">Link the people this note is about, e.g. who was interviewed.</EmptyState>
      )}
      {canEdit && (
        <Combobox
          store={combobox}
          onOptionSubmit={(v) => (v === '__create' ? void createAndAdd() : void add(v))}
          withinPortal
        >
          <Combobox.Target>
            <InputBase
              label="Add a person"
              placeholder="Search people by name or email"
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                combobox.openDropdown();
                combobox.updateSelectedOptionIndex();
              }}
              onFocus={() => combobox.openDropdown()}
              onBlur={() => combobox.closeDropdown()}
              rightSection={found.loading ? <Loader size={14} aria-hidden /> : null}
              maxLength={300}
            />
          </Combobox.Target>
          <Combobox.Dropdown>
            <Combobox.Options>
              {options.map((p) => (
                <Combobox.Option value={p.id} key={p.id}>
                  <Text size="sm">{p.name}</Text>
                  {p.email && (
                    <Text size="xs" c="dimmed">
                      {p.email}
                    </Text>
                  )}
                </Combobox.Option>
              ))}
              {search.trim() && !exact && (
                <Combobox.Option value="__create">
                  <Group gap={6}>
                    <IconPlus size={14} aria-hidden />
                    <Text size="sm">Add “{search.trim()}” as a new person</Text>
                  </Group>
                </Combobox.Option>
              )}
              {!options.length && !search.trim() && <Combobox.Empty>Type a name to find someone.</Combobox.Empty>}
            </Combobox.Options>
          </Combobox.Dropdown>
        </Combobox>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
