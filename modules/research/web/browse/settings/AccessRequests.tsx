import { Badge, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { useLoad } from '../ui/hooks.ts';
import { ErrorNote, notifyDone, notifyError } from '../ui/layout.tsx';

const LIST =
  'query($projectId: ID!) { projectAccessRequests(projectId: $projectId) { id userName role message status createdAt } }';
const DECIDE = {
  approve: 'mutation($id: ID!) { approveAccessRequest(id: $id) { id status } }',
  deny: 'mutation($id: ID!) { denyAccessRequest(id: $id) { id status } }',
} as const;

interface AccessRequest {
  id: string;
  userName: string | null;
  role: 'VIEWER' | 'CONTRIBUTOR';
  message: string | null;
  status: 'PENDING' | 'APPROVED' | 'DENIED';
  createdAt: string;
}

const ROLE = { VIEWER: 'Viewer', CONTRIBUTOR: 'Contributor' } as const;
const STATUS = { PENDING: ['Pending', 'yellow'], APPROVED: ['Approved', 'teal'], DENIED: ['Denied', 'gray'] } as const;

/**
 * "Access requests" in a project's access settings: people who asked for access, with approve
 * (the grant is added to the project's access) and deny. Shown to those who manage the project's access.
 */
export function AccessRequests({ projectId, onChanged }: { projectId: string; onChanged(): void }) {
  const { graphql } = useFieldbook();
  const list = useLoad<{ projectAccessRequests: AccessRequest[] }>(LIST, { projectId });
  const [busy, setBusy] = useState<string | null>(null);

  async function decide(r: AccessRequest, how: 'approve' | 'deny') {
    setBusy(r.id);
    try {
      await graphql(DECIDE[how], { id: r.id });
      notifyDone(
        how === 'approve' ? `${r.userName ?? 'The person'} now has ${ROLE[r.role]} access` : 'The request was denied',
      );
      await list.reload();
      if (how === 'approve') onChanged();
    } catch (err) {
      notifyError(err, how === 'approve' ? 'The request was not approved' : 'The request was not denied');
    } finally {
      setBusy(null);
    }
  }

  const rows = list.data?.projectAccessRequests ?? [];
  return (
    <Paper withBorder p="lg">
      <Title order={2} fz="lg" mb={4}>
        Access requests
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        People who asked to see or contribute to this project. Approving adds them with the role they asked for.
      </Text>
      {list.error ? (
        <ErrorNote
          error={list.error}
          title="The access requests could not be loaded"
          onRetry={() => void list.reload()}
        />
      ) : rows.length === 0 ? (
        <Text size="sm">{list.loading ? 'Loading…' : 'No one has asked for access.'}</Text>
      ) : (
        <Table aria-label="Access requests">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Person</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Message</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Decision</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{r.userName ?? 'Former member'}</Table.Td>
                <Table.Td>{ROLE[r.role]}</Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm">{r.message ?? '—'}</Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={STATUS[r.status][1]}
                    radius="sm"
                    style={{ overflow: 'visible' }}
                    styles={{ label: { overflow: 'visible' } }}
                  >
                    {STATUS[r.status][0]}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {r.status === 'PENDING' && (
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        onClick={() => void decide(r, 'approve')}
                        loading={busy === r.id}
                        aria-label={`Approve ${r.userName ?? ''}`}
                      >
                        Approve
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => void decide(r, 'deny')}
                        disabled={busy === r.id}
                        aria-label={`Deny ${r.userName ?? ''}`}
                      >
                        Deny
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
