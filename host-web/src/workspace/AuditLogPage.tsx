import { Button, Group, Paper, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useServices } from '../session/SessionProvider.tsx';
import { ops, type AuditEntry } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { NeedsAdmin } from '../common/NoAccess.tsx';
import { Page } from '../layout/Page.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';
import { describeAuditEntry } from './audit-text.ts';

const PAGE_SIZE = 50;
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /audit-log: who did what in the workspace, newest first. Workspace admins only. */
export function AuditLogPage() {
  const { can } = useWorkspace();
  const allowed = can('auditLogs:read');
  const { client } = useServices();
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function load(after: string | null) {
    setLoading(true);
    setError(null);
    try {
      const { auditLog } = await client.request<{ auditLog: { nodes: AuditEntry[]; endCursor: string | null } }>(
        ops.auditLog,
        { first: PAGE_SIZE, after },
      );
      setEntries((prev) => (after ? [...prev, ...auditLog.nodes] : auditLog.nodes));
      setCursor(auditLog.endCursor);
      setDone(!auditLog.endCursor || auditLog.nodes.length < PAGE_SIZE);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }

  useEffect(() => {
    if (allowed) void load(null);
  }, [allowed]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!allowed) return <NeedsAdmin what="read the audit log" />;

  return (
    <Page
      title="Audit log"
      description="Changes to members, roles, security settings and tokens in this workspace, newest first."
      width="wide"
    >
      <ErrorAlert error={error} onRetry={() => void load(entries.length ? cursor : null)} />
      {loading && entries.length === 0 ? (
        <SectionLoader label="Loading the audit log" />
      ) : entries.length === 0 && !error ? (
        <Paper withBorder p="xl" ta="center">
          <Text size="sm" c="dimmed">
            Nothing has been recorded yet.
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm" horizontalSpacing="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>What happened</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {timeFormat.format(new Date(e.createdAt))}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {e.actor ? e.actor.name || e.actor.email : 'Fieldbook'}
                      </Text>
                      {e.actor?.name && (
                        <Text size="xs" c="dimmed">
                          {e.actor.email}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{describeAuditEntry(e)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {!done && entries.length > 0 && (
        <Group justify="center" mt="md">
          <Button variant="default" loading={loading} onClick={() => void load(cursor)}>
            Load older entries
          </Button>
        </Group>
      )}
    </Page>
  );
}
