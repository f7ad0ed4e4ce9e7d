import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Paper,
  Select,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDots, IconSearch, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { describeError } from '../api/errors.ts';
import { useQuery } from '../api/hooks.ts';
import { ops, type Invite, type Member, type Role } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SettingsTable } from './SettingsTable.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { NeedsAdmin } from '../common/NoAccess.tsx';
import { Page } from '../layout/Page.tsx';
import { useServices, useSession } from '../session/SessionProvider.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { ROLE_ORDER, roleChoice, roleLabel } from './roles.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function RoleBadge({ role }: { role: Role }) {
  const color =
    role === 'WORKSPACE_ADMIN' ? 'grape' : role === 'MANAGER' ? 'indigo' : role === 'CONTRIBUTOR' ? 'teal' : 'gray';
  return (
    <Badge variant="light" color={color} radius="sm">
      {roleLabel(role)}
    </Badge>
  );
}

/** /settings/users: members and pending invitations. Admins manage roles; contributors invite. */
export function UsersPage() {
  const { can, isAdmin, workspace, reload: reloadWorkspace } = useWorkspace();
  const { client } = useServices();
  const { user } = useSession();
  const canInvite = can('invites:send') || isAdmin;
  const canManage = can('members:manage');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const members = useQuery<{ members: { nodes: Member[]; totalCount: number } }>(
    ops.members,
    { first: 100, search: debounced || null },
    { skip: !canInvite },
  );
  const invites = useQuery<{ invites: Invite[] }>(ops.invites, {}, { skip: !canInvite });
  const [inviteOpen, inviteDialog] = useDisclosure(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [busy, setBusy] = useState(false);

  if (!canInvite) return <NeedsAdmin what="manage the members of this workspace" />;

  const fail = (err: unknown) => {
    const d = describeError(err);
    notifications.show({ color: 'red', title: d.title, message: d.next ? `${d.message} ${d.next}` : d.message });
  };

  async function changeRole(member: Member, value: Role) {
    const c = roleChoice(value, member.role);
    try {
      await client.request(ops.updateMemberRole, {
        userId: member.user.id,
        role: c.role,
        workspaceAdmin: c.workspaceAdmin,
      });
      notifications.show({
        color: 'teal',
        message: `${member.user.name || member.user.email} is now ${roleLabel(value).toLowerCase()}.`,
      });
      await members.reload();
    } catch (err) {
      fail(err);
    }
  }

  async function remove() {
    if (!removing) return;
    setBusy(true);
    try {
      await client.request(ops.removeMember, { userId: removing.user.id });
      notifications.show({
        color: 'teal',
        message: `${removing.user.name || removing.user.email} was removed from ${workspace.name}.`,
      });
      setRemoving(null);
      await Promise.all([members.reload(), reloadWorkspace()]);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(invite: Invite) {
    try {
      await client.request(ops.revokeInvite, { id: invite.id });
      notifications.show({ color: 'teal', message: `The invitation to ${invite.email} was revoked.` });
      await invites.reload();
    } catch (err) {
      fail(err);
    }
  }

  const pending = (invites.data?.invites ?? []).filter((i) => !i.acceptedAt);
  const rows = members.data?.members.nodes ?? [];

  return (
    <Page
      title="Members"
      description={`People in ${workspace.name} and what they can do.`}
      width="wide"
      actions={
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={inviteDialog.open}>
          Invite people
        </Button>
      }
    >
      <Tabs defaultValue="members" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="members">Members{members.data ? ` (${members.data.members.totalCount})` : ''}</Tabs.Tab>
          <Tabs.Tab value="invites">Pending invitations{invites.data ? ` (${pending.length})` : ''}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="members">
          <TextInput
            label="Search members"
            placeholder="Name or email"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            mb="md"
            maw={360}
          />
          <ErrorAlert error={members.error} onRetry={() => void members.reload()} />
          {members.loading && !members.data ? (
            <SectionLoader label="Loading members" />
          ) : !members.data ? null : (
            <SettingsTable
              rows={rows}
              rowKey={(m) => m.user.id}
              highlightOnHover
              emptyRow={
                <Text size="sm" c="dimmed" ta="center" py="md">
                  No member matches “{debounced}”.
                </Text>
              }
              columns={[
                {
                  header: 'Name',
                  cell: (m) => (
                    <Group gap="sm" wrap="nowrap">
                      <Avatar size={32} radius="xl" color="indigo" aria-hidden>
                        {(m.user.name || m.user.email).slice(0, 1).toUpperCase()}
                      </Avatar>
                      <div>
                        <Text size="sm" fw={600}>
                          {m.user.name || m.user.email}
                          {m.user.id === user?.id && (
                            <Text span size="xs" c="dimmed" fw={400}>
                              {' '}
                              (you)
                            </Text>
                          )}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {m.user.email}
                        </Text>
                      </div>
                    </Group>
                  ),
                },
                {
                  header: 'Role',
                  cell: (m) =>
                    canManage && m.user.id !== user?.id ? (
                      <Select
                        aria-label={`Role of ${m.user.name || m.user.email}`}
                        data={ROLE_ORDER.map((r) => ({ value: r, label: roleLabel(r) }))}
                        value={m.effectiveRole}
                        onChange={(v) => v && v !== m.effectiveRole && void changeRole(m, v as Role)}
                        allowDeselect={false}
                        size="xs"
                        w={180}
                        comboboxProps={{ withinPortal: true }}
                      />
                    ) : (
                      <RoleBadge role={m.effectiveRole} />
                    ),
                },
                { header: 'Joined', cell: (m) => <Text size="sm">{dateFormat.format(new Date(m.joinedAt))}</Text> },
                ...(canManage
                  ? [
                      {
                        header: 'Actions',
                        actions: true,
                        cell: (m: (typeof rows)[number]) =>
                          m.user.id !== user?.id && (
                            <Menu position="bottom-end" withinPortal>
                              <Menu.Target>
                                <ActionIcon
                                  variant="subtle"
                                  color="gray"
                                  aria-label={`More actions for ${m.user.name || m.user.email}`}
                                >
                                  <IconDots size={18} aria-hidden />
                                </ActionIcon>
                              </Menu.Target>
                              <Menu.Dropdown>
                                <Menu.Item
                                  color="red"
                                  leftSection={<IconUserMinus size={16} aria-hidden />}
                                  onClick={() => setRemoving(m)}
                                >
                                  Remove from workspace
                                </Menu.Item>
                              </Menu.Dropdown>
                            </Menu>
                          ),
                      },
                    ]
                  : []),
              ]}
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="invites">
          <ErrorAlert error={invites.error} onRetry={() => void invites.reload()} />
          {invites.loading && !invites.data ? (
            <SectionLoader label="Loading invitations" />
          ) : !invites.data ? null : pending.length === 0 ? (
            <Paper withBorder p="xl" ta="center">
              <Text size="sm" c="dimmed">
                No pending invitations.
              </Text>
            </Paper>
          ) : (
            <SettingsTable
              rows={pending}
              rowKey={(i) => i.id}
              columns={[
                { header: 'Email', cell: (i) => <Text size="sm">{i.email}</Text> },
                { header: 'Role', cell: (i) => <RoleBadge role={i.workspaceAdmin ? 'WORKSPACE_ADMIN' : i.role} /> },
                {
                  header: 'Invited by',
                  cell: (i) => <Text size="sm">{i.invitedBy?.name || i.invitedBy?.email || '—'}</Text>,
                },
                { header: 'Expires', cell: (i) => <Text size="sm">{dateFormat.format(new Date(i.expiresAt))}</Text> },
                {
                  header: 'Actions',
                  actions: true,
                  cell: (i) => (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => void revoke(i)}
                      aria-label={`Revoke the invitation to ${i.email}`}
                    >
                      Revoke
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </Tabs.Panel>
      </Tabs>

      <InviteDialog opened={inviteOpen} onClose={inviteDialog.close} onInvited={() => void invites.reload()} />
      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={<Text fw={650}>Remove member</Text>}
        centered
      >
        <Text size="sm">
          Remove <strong>{removing?.user.name || removing?.user.email}</strong> from {workspace.name}? They lose access
          at once. Their research stays in the workspace.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={() => void remove()}>
            Remove
          </Button>
        </Group>
      </Modal>
    </Page>
  );
}
