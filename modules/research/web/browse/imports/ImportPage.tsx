import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconFileImport } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { q, type ProjectSummary } from '../api.ts';
import { errorLine } from '../ui/errors.ts';
import { useCan, useLoad } from '../ui/hooks.ts';
import { ErrorNote, PageFrame } from '../ui/layout.tsx';
import { importedTitle, titleFromFileName } from './titles.ts';

interface Transfer {
  id: string;
  kind: 'EXPORT' | 'IMPORT';
  status: 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  progress: number;
  error: string | null;
  projectId: string | null;
  projectTitle: string | null;
  createdAt: string;
}

const FIELDS = 'id kind status progress error projectId projectTitle createdAt';
const EXPORTS = `query BrowseImportExports($projectId: ID!) { projectTransfers(projectId: $projectId, first: 100) { ${FIELDS} } }`;
const IMPORT = `mutation BrowseImportProject($input: ImportProjectInput!) { importProject(input: $input) { ${FIELDS} } }`;
const ONE = `query BrowseImportTransfer($id: ID!) { projectTransfer(id: $id) { ${FIELDS} } }`;
const TITLE_MAX = 200;
const POLL_MS = 1000;
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Follows an import until it is done, a second at a time. */
function ImportProgress({ transfer: first, onAgain }: { transfer: Transfer; onAgain(): void }) {
  const { graphql } = useFieldbook();
  const [t, setT] = useState(first);
  const [error, setError] = useState<unknown>(null);
  const done = t.status === 'COMPLETED' || t.status === 'FAILED';
  useEffect(() => {
    if (done) return;
    const timer = setTimeout(() => {
      graphql<{ projectTransfer: Transfer }>(ONE, { id: t.id })
        .then((r) => {
          setError(null);
          setT(r.projectTransfer);
        })
        .catch((err: unknown) => {
          setError(err);
          setT((x) => ({ ...x }));
        });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [graphql, t, done]);
  const percent = t.status === 'COMPLETED' ? 100 : t.progress;
  return (
    <Paper withBorder p="lg" role="region" aria-label="Import progress">
      <Text fw={600} role="status" aria-live="polite">
        {t.status === 'COMPLETED'
          ? `“${t.projectTitle ?? 'The project'}” is imported`
          : t.status === 'FAILED'
            ? 'The import failed'
            : t.status === 'QUEUED'
              ? 'Waiting to start…'
              : 'Importing…'}
      </Text>
      <Progress
        mt="sm"
        value={percent}
        color={t.status === 'FAILED' ? 'red' : t.status === 'COMPLETED' ? 'teal' : 'indigo'}
        size="lg"
        radius="xl"
        animated={!done}
        aria-label="Import progress"
      />
      <Text size="sm" c={t.status === 'FAILED' ? 'red.8' : 'dimmed'} mt={6}>
        {t.status === 'FAILED'
          ? (t.error ?? 'Something went wrong while importing. Nothing was imported.')
          : `${percent}% done`}
      </Text>
      {error ? <ErrorNote error={error} title="Progress could not be checked; still trying" /> : null}
      <Group mt="md">
        {t.status === 'COMPLETED' && t.projectId && (
          <Button component={Link} to={`/projects/${t.projectId}`}>
            Open the project
          </Button>
        )}
        {done && (
          <Button variant="default" onClick={onAgain}>
            Import another
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/**
 * /projects/import: makes a new project from an export archive, uploaded or one of the exports of
 * a project the person can read, under the title they choose ("… (imported)" to begin with).
 */
export function ImportPage() {
  const host = useFieldbook();
  const can = useCan();
  const [params] = useSearchParams();
  const [source, setSource] = useState<'upload' | 'export'>(params.get('export') ? 'export' : 'upload');
  const projects = useLoad<{ projects: ProjectSummary[] }>(q.projects, {}, { skip: source !== 'export' });
  const [projectId, setProjectId] = useState(params.get('project') ?? '');
  const exports = useLoad<{ projectTransfers: Transfer[] }>(
    EXPORTS,
    { projectId },
    { skip: source !== 'export' || !projectId },
  );
  const [exportId, setExportId] = useState(params.get('export') ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [titleTouched, setTitleTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [started, setStarted] = useState<Transfer | null>(null);
  const fileId = useId();

  const ready = (exports.data?.projectTransfers ?? []).filter((t) => t.kind === 'EXPORT' && t.status === 'COMPLETED');
  const project = projects.data?.projects.find((p) => p.id === projectId);
  // The title follows the chosen source until the person types their own.
  useEffect(() => {
    if (titleTouched) return;
    if (source === 'upload') setTitle(file ? importedTitle(titleFromFileName(file.name)) : '');
    else {
      const chosen = ready.find((t) => t.id === exportId);
      setTitle(chosen || project ? importedTitle(chosen?.projectTitle ?? project?.title ?? '') : '');
    }
  }, [source, file, exportId, project, ready, titleTouched]);
  // The newest finished export is picked when a project is chosen.
  useEffect(() => {
    if (source === 'export' && ready.length && !ready.some((t) => t.id === exportId)) setExportId(ready[0]!.id);
  }, [source, ready, exportId]);

  if (!can('projects:create')) {
    return (
      <PageFrame title="Import a project" width="content">
        <Alert color="gray">
          Your role cannot create projects, so it cannot import them. Ask a workspace admin for the Contributor role.
        </Alert>
      </PageFrame>
    );
  }
  if (started) {
    return (
      <PageFrame title="Import a project" crumbs={[{ label: 'Projects', to: '/projects' }]} width="content">
        <ImportProgress
          transfer={started}
          onAgain={() => {
            setStarted(null);
            setFile(null);
            setTitleTouched(false);
          }}
        />
      </PageFrame>
    );
  }

  const trimmed = title.trim();
  const titleError = trimmed.length > TITLE_MAX ? `A project title can be at most ${TITLE_MAX} characters long.` : null;
  const canStart = Boolean(trimmed) && !titleError && (source === 'upload' ? file : exportId);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      if (source === 'export') {
        setStarted(
          (await host.graphql<{ importProject: Transfer }>(IMPORT, { input: { exportId, title: trimmed } }))
            .importProject,
        );
      } else {
        if (!host.fetch) throw new Error('This web app cannot upload archives. Reload the page and try again.');
        const res = await host.fetch(`/api/imports?title=${encodeURIComponent(trimmed)}`, {
          method: 'POST',
          body: file,
          headers: { 'content-type': 'application/x-tar' },
        });
        const body = (await res.json().catch(() => null)) as {
          id?: string;
          errors?: Array<{ message: string }>;
          message?: string;
        } | null;
        if (!res.ok || !body?.id)
          throw new Error(body?.errors?.[0]?.message ?? body?.message ?? `The upload failed (status ${res.status}).`);
        setStarted((await host.graphql<{ projectTransfer: Transfer }>(ONE, { id: body.id })).projectTransfer);
      }
    } catch (err) {
      setError(errorLine(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageFrame
      title="Import a project"
      description="Make a new project from a Fieldbook export: its notes, insights, highlights, tags, fields and people."
      crumbs={[{ label: 'Projects', to: '/projects' }]}
      width="content"
    >
      <Paper withBorder p="lg">
        <Stack gap="md">
          <SegmentedControl
            value={source}
            onChange={(v) => setSource(v as 'upload' | 'export')}
            data={[
              { value: 'upload', label: 'Upload an archive' },
              { value: 'export', label: 'From an export' },
            ]}
            aria-label="Where the project comes from"
            w="fit-content"
          />
          {source === 'upload' ? (
            <div>
              <Text component="label" htmlFor={fileId} size="sm" fw={500} display="block" mb={4}>
                Export archive (.tar)
              </Text>
              <input
                id={fileId}
                type="file"
                accept=".tar,application/x-tar"
                onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
              />
            </div>
          ) : (
            <>
              {projects.error ? <ErrorNote error={projects.error} title="The projects could not be loaded" /> : null}
              <NativeSelect
                label="Project"
                value={projectId}
                onChange={(e) => {
                  setProjectId(e.currentTarget.value);
                  setExportId('');
                }}
                data={[
                  { value: '', label: projects.data ? 'Choose a project' : 'Loading…' },
                  ...(projects.data?.projects ?? []).map((p) => ({ value: p.id, label: p.title })),
                ]}
              />
              {projectId && exports.data && !ready.length ? (
                <Text size="sm" c="dimmed">
                  This project has no finished export. Export it from its settings (Export), then import it here.
                </Text>
              ) : null}
              {ready.length > 0 && (
                <NativeSelect
                  label="Export"
                  value={exportId}
                  onChange={(e) => setExportId(e.currentTarget.value)}
                  data={ready.map((t) => ({
                    value: t.id,
                    label: `${t.projectTitle ?? 'Export'}, ${dateTime.format(new Date(t.createdAt))}`,
                  }))}
                />
              )}
            </>
          )}
          <TextInput
            label="New project’s title"
            description={`Up to ${TITLE_MAX} characters.`}
            value={title}
            onChange={(e) => {
              setTitle(e.currentTarget.value);
              setTitleTouched(true);
            }}
            error={titleError}
            required
          />
          {error && (
            <Alert color="red" variant="light" role="alert" title="The import did not start">
              {error}
            </Alert>
          )}
          <Group>
            <Button
              leftSection={<IconFileImport size={16} aria-hidden />}
              onClick={() => void start()}
              loading={busy}
              disabled={!canStart}
            >
              Import
            </Button>
          </Group>
        </Stack>
      </Paper>
    </PageFrame>
  );
}
