import { Badge, Button, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { q, type PermissionLevel, type PermissionMap, type Project } from '../api.ts';
import { useAction, useLoad } from '../ui/hooks.ts';
import { ErrorNote, SectionLoader, notifyDone } from '../ui/layout.tsx';
import { LEVEL_LABEL, sameMap, withGrant, type Choice } from './access-map.ts';

const LEVELS: PermissionLevel[] = ['none', 'read', 'write', 'full'];
const grantOptions = [
  { value: '', label: 'No grant' },
  ...LEVELS.filter((l) => l !== 'none').map((l) => ({ value: l, label: LEVEL_LABEL[l] })),
];
const markupOptions = [
  { value: '', label: 'By workspace role (open)' },
  ...LEVELS.map((l) => ({ value: l, label: LEVEL_LABEL[l] })),
];

interface Member {
  user: { id: string; name: string; email: string };
  effectiveRole: string;
}

/**
 * /projects/{projectId}/settings/access: the project's permission map (000 §6). The level for
 * everyone in the workspace (the markup group), then grants per user group and per member; the
 * effective level is the highest that applies, and a viewer never goes above read.
 */
export function AccessSettings({ project, onChanged }: { project: Project; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const members = useLoad<{ members: { nodes: Member[] } }>(q.members);
  const groups = useLoad<{ userGroups: Array<{ id: string; name: string; memberCount: number }> }>(q.userGroups);
  const stored: PermissionMap = { groups: project.permissions.groups ?? {}, users: project.permissions.users ?? {} };
  const [map, setMap] = useState<PermissionMap>(stored);
  const [search, setSearch] = useState('');
  const save = useAction((m: PermissionMap) => graphql(q.updateAccess, { projectId: project.id, permissions: m }));
  const storedKey = JSON.stringify(project.permissions);
  useEffect(
    () => setMap({ groups: project.permissions.groups ?? {}, users: project.permissions.users ?? {} }),
    [storedKey],
  ); // eslint-disable-line react-hooks/exhaustive-deps

  const editable = project.myAccess.canManageAccess;
  const dirty = !sameMap(map, stored);
  const me = project.myAccess;
  const filtered = (members.data?.members.nodes ?? []).filter((m) => {
    const s = search.trim().toLowerCase();
    return !s || m.user.name.toLowerCase().includes(s) || m.user.email.toLowerCase().includes(s);
  });

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} fz="lg" mb={4}>
              Your access
            </Title>
            <Text size="sm" c="dimmed">
              {me.accessRole === 'MANAGER'
                ? 'As a workspace manager you have full access to every project.'
                : 'The highest of your role, your own grant and your groups’ grants.'}
            </Text>
          </div>
          <Group gap={6}>
            <Badge variant="light" color="indigo" radius="sm" size="lg">
              {LEVEL_LABEL[me.level]}
            </Badge>
            {me.accessRole && (
              <Badge variant="light" color="gray" radius="sm" size="lg">
                {me.accessRole.charAt(0) + me.accessRole.slice(1).toLowerCase()}
              </Badge>
            )}
          </Group>
        </Group>
      </Paper>

      <Paper withBorder p="lg">
        <Title order={2} fz="lg" mb={4}>
          Everyone in the workspace
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Open projects follow each person’s workspace role. Choose a level to restrict the project: then only the
          grants below can raise it.
        </Text>
        <Select
          label="Access for everyone in the workspace"
          data={markupOptions}
          value={map.groups.markup ?? ''}
          onChange={(v) => setMap(withGrant(map, 'groups', 'markup', (v ?? '') as Choice))}
          allowDeselect={false}
          disabled={!editable}
          maw={360}
        />
      </Paper>

      <Paper withBorder p="lg">
        <Title order={2} fz="lg" mb="md">
          User groups
        </Title>
        {groups.error && !groups.data ? (
          <ErrorNote
            error={groups.error}
            title="User groups could not be loaded"
            onRetry={() => void groups.reload()}
          />
        ) : !groups.data ? (
          <SectionLoader />
        ) : groups.data.userGroups.length === 0 ? (
          <Text size="sm" c="dimmed">
            This workspace has no user groups. Admins create them in Workspace › Groups.
          </Text>
        ) : (
          <Table verticalSpacing="xs">
            <Table.Tbody>
              {groups.data.userGroups.map((g) => (
                <Table.Tr key={g.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {g.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {g.memberCount === 1 ? '1 member' : `${g.memberCount} members`}
                    </Text>
                  </Table.Td>
                  <Table.Td w={200}>
                    <Select
                      aria-label={`Access for the group ${g.name}`}
                      data={grantOptions}
                      value={map.groups[g.id] ?? ''}
                      onChange={(v) => setMap(withGrant(map, 'groups', g.id, (v ?? '') as Choice))}
                      allowDeselect={false}
                      disabled={!editable}
                      size="sm"
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>

      <Paper withBorder p="lg">
        <Group justify="space-between" mb="md">
          <Title order={2} fz="lg">
            Members
          </Title>
          <TextInput
            aria-label="Search members"
            placeholder="Search members"
            leftSection={<IconSearch size={14} aria-hidden />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            size="sm"
          />
        </Group>
        {members.error && !members.data ? (
          <ErrorNote error={members.error} title="Members could not be loaded" onRetry={() => void members.reload()} />
        ) : !members.data ? (
          <SectionLoader />
        ) : (
          <Table verticalSpacing="xs">
            <Table.Tbody>
              {filtered.map((m) => (
                <Table.Tr key={m.user.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {m.user.name || m.user.email}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {m.user.email} ·{' '}
                      {m.effectiveRole === 'WORKSPACE_ADMIN'
                        ? 'Admin'
                        : m.effectiveRole.charAt(0) + m.effectiveRole.slice(1).toLowerCase()}
                    </Text>
                  </Table.Td>
                  <Table.Td w={200}>
                    <Select
                      aria-label={`Access for ${m.user.name || m.user.email}`}
                      data={grantOptions}
                      value={map.users[m.user.id] ?? ''}
                      onChange={(v) => setMap(withGrant(map, 'users', m.user.id, (v ?? '') as Choice))}
                      allowDeselect={false}
                      disabled={!editable}
                      size="sm"
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>

      <ErrorNote error={save.error} title="Access was not saved" />
      {editable && (
        <Group justify="flex-end">
          <Button variant="default" disabled={!dirty} onClick={() => setMap(stored)}>
            Discard changes
          </Button>
          <Button
            disabled={!dirty}
            loading={save.busy}
            onClick={async () => {
              if (await save.run(map)) {
                notifyDone('Access to this project was updated.');
                onChanged();
              }
            }}
          >
            Save access
          </Button>
        </Group>
      )}
    </Stack>
  );
}
