import { Badge, Button, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconDatabaseExport, IconDownload, IconFileImport } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useEffect, useState } from 'react';
import type { Project } from '../api.ts';
import { timeAgo, useAction, useCan, useLoad } from '../ui/hooks.ts';
import { ErrorNote, SectionLoader, notifyError } from '../ui/layout.tsx';

interface Transfer {
  id: string;
  kind: 'EXPORT' | 'IMPORT';
  status: 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  progress: number;
  error: string | null;
  fileSize: number | null;
  downloadUrl: string | null;
  projectTitle: string | null;
  createdAt: string;
  completedAt: string | null;
}

const FIELDS = 'id kind status progress error fileSize downloadUrl projectTitle createdAt completedAt';
const LIST = `query BrowseTransfers($projectId: ID!) { projectTransfers(projectId: $projectId, first: 20) { ${FIELDS} } }`;
const ONE = `query BrowseTransfer($id: ID!) { projectTransfer(id: $id) { ${FIELDS} } }`;
const START = `mutation BrowseExport($projectId: ID!) { exportProject(projectId: $projectId) { ${FIELDS} } }`;
const POLL_MS = 1000;

const STATUS: Record<Transfer['status'], { label: string; color: string }> = {
  QUEUED: { label: 'Waiting to start', color: 'gray' },
  RUNNING: { label: 'Exporting', color: 'indigo' },
  COMPLETED: { label: 'Ready', color: 'teal' },
  FAILED: { label: 'Failed', color: 'red' },
};

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

const fileName = (title: string | null) =>
  `${
    (title ?? 'project')
      .replace(/[^\w\- ]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || 'project'
  }.tar`;

/** A finished export: download it, or import a copy of the project from it (contributors and above). */
function ExportActions({ transfer, projectId }: { transfer: Transfer; projectId: string }) {
  const can = useCan();
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <DownloadButton transfer={transfer} />
      {transfer.kind === 'EXPORT' && can('projects:create') && (
        <Button
          component={Link}
          to={`/projects/import?project=${projectId}&export=${transfer.id}`}
          size="compact-sm"
          variant="subtle"
          leftSection={<IconFileImport size={14} aria-hidden />}
        >
          Import a copy
        </Button>
      )}
    </Group>
  );
}

/** Downloads with the session (the export route wants the bearer token), falling back to a plain link. */
function DownloadButton({ transfer }: { transfer: Transfer }) {
  const host = useFieldbook();
  const [busy, setBusy] = useState(false);
  if (!transfer.downloadUrl) return null;
  if (!host.fetch) {
    return (
      <Button
        component="a"
        href={transfer.downloadUrl}
        size="compact-sm"
        variant="light"
        leftSection={<IconDownload size={14} aria-hidden />}
      >
        Download
      </Button>
    );
  }
  return (
    <Button
      size="compact-sm"
      variant="light"
      loading={busy}
      leftSection={<IconDownload size={14} aria-hidden />}
      onClick={async () => {
        setBusy(true);
        try {
          const res = await host.fetch!(transfer.downloadUrl!);
          if (!res.ok) throw new Error(`The download failed (status ${res.status}). Export the project again.`);
          const url = URL.createObjectURL(await res.blob());
          const a = document.createElement('a');
          a.href = url;
          a.download = fileName(transfer.projectTitle);
          a.click();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        } catch (err) {
          notifyError(err, 'The export could not be downloaded');
        } finally {
          setBusy(false);
        }
      }}
    >
      Download{transfer.fileSize != null ? ` (${formatBytes(transfer.fileSize)})` : ''}
    </Button>
  );
}

/** Follows one export until it finishes, polling `projectTransfer(id)`. */
function LiveExport({ initial, onFinished }: { initial: Transfer; onFinished(): void }) {
  const { graphql } = useFieldbook();
  const [t, setT] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const done = t.status === 'COMPLETED' || t.status === 'FAILED';
  useEffect(() => {
    if (done) {
      onFinished();
      return;
    }
    const timer = setTimeout(async () => {
      try {
        setT((await graphql<{ projectTransfer: Transfer }>(ONE, { id: t.id })).projectTransfer);
        setError(null);
      } catch (err) {
        setError(err);
        setT((x) => ({ ...x })); // poll again
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [t, done, graphql, onFinished]);

  return (
    <Paper withBorder p="lg" aria-live="polite">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>
          {t.status === 'COMPLETED'
            ? 'Your export is ready'
            : t.status === 'FAILED'
              ? 'The export failed'
              : 'Exporting the project…'}
        </Text>
        <Badge variant="light" color={STATUS[t.status].color} radius="sm">
          {STATUS[t.status].label}
        </Badge>
      </Group>
      <Progress
        value={t.status === 'COMPLETED' ? 100 : t.progress}
        color={t.status === 'FAILED' ? 'red' : t.status === 'COMPLETED' ? 'teal' : 'indigo'}
        size="lg"
        radius="xl"
        animated={!done}
        aria-label="Export progress"
      />
      <Text size="sm" c="dimmed" mt={6}>
        {t.status === 'FAILED'
          ? (t.error ?? 'Something went wrong while exporting. Try again.')
          : `${t.status === 'COMPLETED' ? 100 : t.progress}% done`}
      </Text>
      {error ? <ErrorNote error={error} title="Progress could not be checked; still trying" /> : null}
      {t.status === 'COMPLETED' && (
        <Group mt="sm">
          <DownloadButton transfer={t} />
        </Group>
      )}
    </Paper>
  );
}

/** /projects/{projectId}/settings/export: export the project as an archive, follow its progress live, download it. */
export function ExportSettings({ project }: { project: Project }) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const list = useLoad<{ projectTransfers: Transfer[] }>(LIST, { projectId: project.id });
  const [live, setLive] = useState<Transfer | null>(null);
  const start = useAction(() => graphql<{ exportProject: Transfer }>(START, { projectId: project.id }));
  const canExport = can('exports:create');
  const exports = (list.data?.projectTransfers ?? []).filter((t) => t.kind === 'EXPORT' && t.id !== live?.id);

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg">
        <Title order={2} fz="lg" mb={4}>
          Export
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Download the project with its notes, insights, highlights, tags, fields and people as an archive. It can be
          imported into another workspace as a new project.
        </Text>
        {canExport ? (
          <Button
            leftSection={<IconDatabaseExport size={16} aria-hidden />}
            loading={start.busy}
            disabled={Boolean(live && live.status !== 'COMPLETED' && live.status !== 'FAILED')}
            onClick={async () => {
              const res = await start.run();
              if (res) setLive(res.exportProject);
            }}
          >
            Export project
          </Button>
        ) : (
          <Text size="sm">Contributors and above can export projects.</Text>
        )}
        <ErrorNote error={start.error} title="The export did not start" />
      </Paper>
      {live && <LiveExport key={live.id} initial={live} onFinished={() => void list.reload()} />}
      <Paper withBorder p="lg">
        <Title order={2} fz="lg" mb="md">
          Earlier exports
        </Title>
        {list.error && !list.data ? (
          <ErrorNote error={list.error} onRetry={() => void list.reload()} />
        ) : !list.data ? (
          <SectionLoader />
        ) : exports.length === 0 ? (
          <Text size="sm" c="dimmed">
            No earlier exports.
          </Text>
        ) : (
          <Table verticalSpacing="sm">
            <Table.Tbody>
              {exports.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Text size="sm">Export {timeAgo(t.createdAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS[t.status].color} radius="sm">
                      {STATUS[t.status].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    {t.status === 'COMPLETED' ? (
                      <ExportActions transfer={t} projectId={project.id} />
                    ) : t.status === 'FAILED' ? (
                      <Text size="xs" c="dimmed">
                        {t.error}
                      </Text>
                    ) : (
                      `${t.progress}%`
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}
