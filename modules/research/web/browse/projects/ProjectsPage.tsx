import {
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconFileImport, IconFolder, IconFolderPlus, IconLayoutGrid, IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { q, type FolderSummary, type ProjectStatus, type ProjectSummary } from '../api.ts';
import { errorLine } from '../ui/errors.ts';
import { EmptyState, ErrorNote, PageFrame, SectionLoader, notifyDone, notifyError } from '../ui/layout.tsx';
import { timeAgo, useAction, useCan, useLoad } from '../ui/hooks.ts';
import { ProjectIcon, StatusBadge } from '../ui/look.tsx';
import { NewProjectDialog } from './NewProjectDialog.tsx';
import { ProjectCard, ReorderHandle } from './ProjectCard.tsx';
import { useReorder } from './useReorder.ts';
import type { Move } from './reorder.ts';
import { PROJECT_TABS } from './tabs.ts';

type Tab = (typeof PROJECT_TABS)[number]['value'];

type StatusFilter = ProjectStatus | 'ALL';

function tabOf(pathname: string): Tab {
  const seg = pathname.split('/')[2] ?? '';
  return (PROJECT_TABS.find((t) => t.value === seg)?.value ?? 'all-projects') as Tab;
}

/** /projects and its tabs (000 §2): every project the viewer can read, theirs, those shared with them, by folder, and as a list. */
export function ProjectsPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { viewer, graphql } = useFieldbook();
  const can = useCan();
  const tab = tabOf(pathname);
  const [status, setStatus] = useState<StatusFilter>('ACTIVE');
  const projects = useLoad<{ projects: ProjectSummary[] }>(q.projects, { status: status === 'ALL' ? null : status });
  const folders = useLoad<{ folders: FolderSummary[] }>(q.folders);
  const creating = pathname === '/projects/new';
  const canCreate = can('projects:create');

  const all = projects.data?.projects;
  const shown = useMemo(() => {
    if (!all) return [];
    if (tab === 'your-projects') return all.filter((p) => p.createdById === viewer?.id);
    // Shared with you: someone else's project that names you, or that is restricted and still open to you.
    if (tab === 'shared-with-you')
      return all.filter(
        (p) =>
          p.createdById !== viewer?.id &&
          (Boolean(viewer && p.permissions.users?.[viewer.id]) || p.myAccess.restricted),
      );
    return all;
  }, [all, tab, viewer]);

  async function commitMove(move: Move<ProjectSummary>): Promise<boolean> {
    try {
      await graphql(q.moveProject, { id: move.id, previousId: move.previousId, nextId: move.nextId });
      return true;
    } catch (err) {
      notifyError(err, 'The project could not be moved');
      return false;
    }
  }

  const header = (
    <Group gap="sm">
      {can('categories:update') && <NewFolderButton onCreated={() => void folders.reload()} />}
      {canCreate && (
        <Button
          variant="default"
          component={Link}
          to="/projects/import"
          leftSection={<IconFileImport size={16} aria-hidden />}
        >
          Import
        </Button>
      )}
      {canCreate && (
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => navigate('/projects/new')}>
          New project
        </Button>
      )}
    </Group>
  );

  const body = (
    <>
      {tab !== 'folders' && (
        <Group justify="space-between" mb="md" gap="sm">
          <SegmentedControl
            aria-label="Status"
            value={status}
            onChange={(v) => setStatus(v as StatusFilter)}
            data={[
              { value: 'ACTIVE', label: 'Active' },
              { value: 'COMPLETED', label: 'Completed' },
              { value: 'ARCHIVED', label: 'Archived' },
              { value: 'ALL', label: 'All' },
            ]}
          />
          {all && (
            <Text size="sm" c="dimmed" aria-live="polite">
              {shown.length === 1 ? '1 project' : `${shown.length} projects`}
            </Text>
          )}
        </Group>
      )}

      {projects.error && !all ? (
        <ErrorNote error={projects.error} title="Projects could not be loaded" onRetry={() => void projects.reload()} />
      ) : !all ? (
        <SectionLoader label="Loading projects…" />
      ) : tab === 'folders' ? (
        <FoldersTab folders={folders.data?.folders ?? []} projects={all} loading={folders.loading} />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<IconLayoutGrid size={24} />}
          title={
            tab === 'shared-with-you'
              ? 'Nothing shared with you yet'
              : tab === 'your-projects'
                ? 'You have not created a project yet'
                : status === 'ACTIVE'
                  ? 'No active projects yet'
                  : 'No projects with this status'
          }
          action={
            canCreate && tab !== 'shared-with-you' ? (
              <Button onClick={() => navigate('/projects/new')}>New project</Button>
            ) : undefined
          }
        >
          {canCreate
            ? 'Projects keep a study’s notes, insights and tags together. Create one to get started.'
            : 'When your team creates projects you can read, they appear here.'}
        </EmptyState>
      ) : tab === 'list' ? (
        <ProjectTable projects={shown} reorderable={canCreate && can('projects:update')} commit={commitMove} />
      ) : (
        <ProjectGrid
          projects={shown}
          reorderable={tab === 'all-projects' && can('projects:update')}
          commit={commitMove}
        />
      )}
    </>
  );

  return (
    <PageFrame
      title="Projects"
      description="Research projects in this workspace: notes, insights and tags, organised in folders."
      actions={header}
    >
      <Tabs value={tab} onChange={(v) => v && navigate(`/projects/${v}`)}>
        <Tabs.List aria-label="Project views" mb="md">
          {PROJECT_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {PROJECT_TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value}>
            {t.value === tab && body}
          </Tabs.Panel>
        ))}
      </Tabs>

      <NewProjectDialog
        opened={creating}
        onClose={() => navigate('/projects/all-projects')}
        folders={folders.data?.folders ?? []}
        onCreated={(p) => {
          notifyDone(`${p.title} was created.`);
          navigate(`/projects/${p.id}`);
        }}
      />
    </PageFrame>
  );
}

function ProjectGrid({
  projects,
  reorderable,
  commit,
}: {
  projects: ProjectSummary[];
  reorderable: boolean;
  commit(m: Move<ProjectSummary>): Promise<boolean>;
}) {
  const r = useReorder(projects, commit);
  return (
    <>
      <VisuallyHidden aria-live="polite">{r.announcement}</VisuallyHidden>
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 3 }}
        spacing="md"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Projects"
      >
        {r.order.map((p) => {
          const movable = reorderable && p.myAccess.canEdit;
          return (
            <li key={p.id} {...r.dragProps(p.id, movable)}>
              <ProjectCard
                project={p}
                dimmed={r.dragging === p.id}
                handle={movable ? <ReorderHandle title={p.title} onKeyDown={r.onHandleKey(p.id)} /> : undefined}
              />
            </li>
          );
        })}
      </SimpleGrid>
    </>
  );
}

function ProjectTable({
  projects,
  reorderable,
  commit,
}: {
  projects: ProjectSummary[];
  reorderable: boolean;
  commit(m: Move<ProjectSummary>): Promise<boolean>;
}) {
  const r = useReorder(projects, commit);
  return (
    <Paper withBorder>
      <VisuallyHidden aria-live="polite">{r.announcement}</VisuallyHidden>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {reorderable && (
              <Table.Th w={48}>
                <VisuallyHidden>Order</VisuallyHidden>
              </Table.Th>
            )}
            <Table.Th>Project</Table.Th>
            <Table.Th>Folder</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {r.order.map((p) => {
            const movable = reorderable && p.myAccess.canEdit;
            return (
              <Table.Tr key={p.id} {...r.dragProps(p.id, movable)} style={{ opacity: r.dragging === p.id ? 0.5 : 1 }}>
                {reorderable && (
                  <Table.Td>{movable && <ReorderHandle title={p.title} onKeyDown={r.onHandleKey(p.id)} />}</Table.Td>
                )}
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <ProjectIcon icon={p.icon} color={p.color} size={28} />
                    <Anchor component={Link} to={`/projects/${p.id}`} fw={500}>
                      {p.title}
                    </Anchor>
                  </Group>
                </Table.Td>
                <Table.Td>
                  {p.folder ? (
                    <Anchor component={Link} to={`/folders/${p.folder.id}`} size="sm" c="dimmed">
                      {p.folder.path}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {timeAgo(p.updatedAt)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function FoldersTab({
  folders,
  projects,
  loading,
}: {
  folders: FolderSummary[];
  projects: ProjectSummary[];
  loading: boolean;
}) {
  if (loading && !folders.length) return <SectionLoader label="Loading folders…" />;
  const loose = projects.filter((p) => !p.folderId);
  if (!folders.length) {
    return (
      <EmptyState icon={<IconFolder size={24} />} title="No folders yet">
        Folders group related projects, e.g. by team or product area.
      </EmptyState>
    );
  }
  const sorted = [...folders].sort((a, b) => a.path.localeCompare(b.path));
  return (
    <Stack gap="sm">
      {sorted.map((f) => {
        const inside = projects.filter((p) => p.folderId === f.id);
        return (
          <Paper key={f.id} withBorder p="md">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <IconFolder size={20} aria-hidden color="#5c6370" />
                <Anchor component={Link} to={`/folders/${f.id}`} fw={600} truncate>
                  {f.path}
                </Anchor>
              </Group>
              <Text size="sm" c="dimmed">
                {inside.length === 1 ? '1 project' : `${inside.length} projects`}
              </Text>
            </Group>
            {inside.length > 0 && (
              <Group gap="xs" mt="sm">
                {inside.map((p) => (
                  <Button
                    key={p.id}
                    component={Link}
                    to={`/projects/${p.id}`}
                    size="compact-sm"
                    variant="light"
                    color="gray"
                    leftSection={<ProjectIcon icon={p.icon} color={p.color} size={18} />}
                  >
                    {p.title}
                  </Button>
                ))}
              </Group>
            )}
          </Paper>
        );
      })}
      {loose.length > 0 && (
        <Text size="sm" c="dimmed" mt="xs">
          {loose.length === 1 ? '1 project is' : `${loose.length} projects are`} in no folder.
        </Text>
      )}
    </Stack>
  );
}

function NewFolderButton({ onCreated }: { onCreated(): void }) {
  const { graphql } = useFieldbook();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const create = useAction((t: string) =>
    graphql<{ createFolder: { id: string; title: string } }>(q.createFolder, { title: t }),
  );
  if (!open) {
    return (
      <Button variant="default" leftSection={<IconFolderPlus size={16} aria-hidden />} onClick={() => setOpen(true)}>
        New folder
      </Button>
    );
  }
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        const res = await create.run(title.trim());
        if (res) {
          notifyDone(`The folder ${res.createFolder.title} was created.`);
          setTitle('');
          setOpen(false);
          onCreated();
        }
      }}
    >
      <Group gap="xs" align="flex-start">
        <TextInput
          aria-label="Folder name"
          placeholder="Folder name"
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          autoFocus
          error={create.error ? errorLine(create.error) : null}
          onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        />
        <Button type="submit" loading={create.busy} disabled={!title.trim()}>
          Add
        </Button>
        <Button variant="subtle" color="gray" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </Group>
    </form>
  );
}
