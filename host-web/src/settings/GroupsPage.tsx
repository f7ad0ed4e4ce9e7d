import { ActionIcon, Button, Group, Menu, Modal, MultiSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDots, IconPencil, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useQuery } from '../api/hooks.ts';
import { ops, type Member, type UserGroup } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SettingsTable } from './SettingsTable.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { NeedsAdmin } from '../common/NoAccess.tsx';
import { Page } from '../layout/Page.tsx';
import { useServices } from '../session/SessionProvider.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';

/** Limits of 000 §9: 50 groups per workspace, 200 members each. */
const MAX_GROUPS = 50;
const MAX_GROUP_MEMBERS = 200;
const GROUP_NAME_MAX = 100;

type Editing =
  | { kind: 'create' }
  | { kind: 'rename'; group: UserGroup }
  | { kind: 'members'; group: UserGroup }
  | { kind: 'delete'; group: UserGroup }
  | null;

/** /settings/groups: user groups, which projects and share settings can grant access to. */
export function GroupsPage() {
  const { can } = useWorkspace();
  const allowed = can('userGroups:manage');
  const { client } = useServices();
  const groups = useQuery<{ userGroups: UserGroup[] }>(ops.userGroups, {}, { skip: !allowed });
  const [memberSearch, setMemberSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(memberSearch.trim(), 250);
  const members = useQuery<{ members: { nodes: Member[] } }>(
    ops.members,
    { first: 100, search: debouncedSearch || null },
    { skip: !allowed },
  );
  // Labels of people already chosen, so they stay readable when a search no longer lists them.
  const [known, setKnown] = useState<Map<string, string>>(new Map());
  const [editing, setEditing] = useState<Editing>(null);
  // The dialog keeps showing what it was about while it animates closed.
  const lastEditing = useRef<Editing>(null);
  if (editing) lastEditing.current = editing;
  const shown = editing ?? lastEditing.current;
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (!allowed) return <NeedsAdmin what="manage user groups" />;

  const list = groups.data?.userGroups ?? [];
  const open = (e: Editing) => {
    setError(null);
    setEditing(e);
    if (e?.kind === 'rename') setName(e.group.name);
    if (e?.kind === 'create') setName('');
    if (e?.kind === 'members') {
      setSelected(e.group.members.map((m) => m.id));
      setKnown(new Map(e.group.members.map((m) => [m.id, m.name ? `${m.name} (${m.email})` : m.email])));
      setMemberSearch('');
    }
  };

  async function save() {
    if (!editing) return;
    setBusy(true);
    setError(null);
    try {
      if (editing.kind === 'create') await client.request(ops.createUserGroup, { name: name.trim() });
      if (editing.kind === 'rename')
        await client.request(ops.renameUserGroup, { id: editing.group.id, name: name.trim() });
      if (editing.kind === 'members')
        await client.request(ops.setUserGroupMembers, { id: editing.group.id, userIds: selected });
      if (editing.kind === 'delete') await client.request(ops.deleteUserGroup, { id: editing.group.id });
      notifications.show({
        color: 'teal',
        message:
          editing.kind === 'create'
            ? `The group “${name.trim()}” was created.`
            : editing.kind === 'delete'
              ? `The group “${editing.group.name}” was deleted.`
              : 'The group was saved.',
      });
      setEditing(null);
      await groups.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const labels = new Map(known);
  for (const m of members.data?.members.nodes ?? [])
    labels.set(m.user.id, m.user.name ? `${m.user.name} (${m.user.email})` : m.user.email);
  const memberOptions = [...labels].map(([value, label]) => ({ value, label }));
  const title =
    shown?.kind === 'create'
      ? 'New group'
      : shown?.kind === 'rename'
        ? 'Rename group'
        : shown?.kind === 'members'
          ? `Members of ${shown.group.name}`
          : 'Delete group';

  return (
    <Page
      title="Groups"
      description={`Group people to give them access together. Up to ${MAX_GROUPS} groups of ${MAX_GROUP_MEMBERS} people.`}
      actions={
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => open({ kind: 'create' })}
          disabled={list.length >= MAX_GROUPS}
        >
          New group
        </Button>
      }
    >
      <ErrorAlert error={groups.error} onRetry={() => void groups.reload()} />
      {groups.loading && !groups.data ? (
        <SectionLoader label="Loading groups" />
      ) : !groups.data ? null : list.length === 0 ? (
        <Paper withBorder p="xl" ta="center">
          <IconUsers size={32} aria-hidden color="#5c6370" />
          <Text fw={600} mt="xs">
            No groups yet
          </Text>
          <Text size="sm" c="dimmed" mt={4}>
            Create a group such as “Design” or “Support” to share projects with everyone in it at once.
          </Text>
        </Paper>
      ) : (
        <SettingsTable
          rows={list}
          rowKey={(g) => g.id}
          highlightOnHover
          columns={[
            {
              header: 'Group',
              cell: (g) => (
                <Text size="sm" fw={600}>
                  {g.name}
                </Text>
              ),
            },
            {
              header: 'Members',
              cell: (g) => (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => open({ kind: 'members', group: g })}
                  aria-label={`${g.memberCount} ${g.memberCount === 1 ? 'member' : 'members'}, edit the members of ${g.name}`}
                >
                  {g.memberCount} {g.memberCount === 1 ? 'member' : 'members'}
                </Button>
              ),
            },
            {
              header: 'Actions',
              actions: true,
              cell: (g) => (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${g.name}`}>
                      <IconDots size={18} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item
                      leftSection={<IconPencil size={16} aria-hidden />}
                      onClick={() => open({ kind: 'rename', group: g })}
                    >
                      Rename
                    </Menu.Item>
                    <Menu.Item
                      color="red"
                      leftSection={<IconTrash size={16} aria-hidden />}
                      onClick={() => open({ kind: 'delete', group: g })}
                    >
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              ),
            },
          ]}
        />
      )}

      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={<Text fw={650}>{title}</Text>} centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Stack gap="md">
            {(shown?.kind === 'create' || shown?.kind === 'rename') && (
              <TextInput
                label="Group name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                maxLength={GROUP_NAME_MAX}
                required
                data-autofocus
              />
            )}
            {shown?.kind === 'members' && (
              <MultiSelect
                label="Members"
                description={`At most ${MAX_GROUP_MEMBERS} people.`}
                data={memberOptions}
                value={selected}
                onChange={(ids) => {
                  setSelected(ids);
                  setKnown(new Map([...labels].filter(([id]) => ids.includes(id))));
                }}
                searchable
                searchValue={memberSearch}
                onSearchChange={setMemberSearch}
                filter={({ options }) => options}
                maxValues={MAX_GROUP_MEMBERS}
                nothingFoundMessage="No member matches"
                comboboxProps={{ withinPortal: true }}
              />
            )}
            {shown?.kind === 'delete' && (
              <Text size="sm">
                Delete <strong>{shown.group.name}</strong>? Its members keep their own access; only access given through
                the group ends.
              </Text>
            )}
            <ErrorAlert error={error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={busy}
                color={shown?.kind === 'delete' ? 'red' : undefined}
                disabled={(shown?.kind === 'create' || shown?.kind === 'rename') && !name.trim()}
              >
                {shown?.kind === 'delete' ? 'Delete group' : 'Save'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Page>
  );
}
