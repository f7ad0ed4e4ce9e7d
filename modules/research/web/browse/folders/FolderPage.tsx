import { Anchor, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBroadcast, IconBulb, IconFolder, IconLayoutGrid } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { q, type DocumentSummary, type ProjectSummary } from '../api.ts';
import { isNotFound } from '../ui/errors.ts';
import { UUID, useLoad } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, NotFoundPanel, PageFrame, SectionLoader } from '../ui/layout.tsx';
import { DocumentRow } from '../project/DocumentList.tsx';
import { ProjectCard } from '../projects/ProjectCard.tsx';
import { FolderActions } from './FolderActions.tsx';

interface Folder {
  id: string;
  title: string;
  path: string;
  pathSegments: string[];
  ancestry: string[];
  parentId: string | null;
  parent: { id: string; title: string } | null;
  children: Array<{ id: string; title: string; path: string }>;
  projects: ProjectSummary[];
}

const TABS = [
  { value: 'all', label: 'All', path: '' },
  { value: 'projects', label: 'Projects', path: 'projects' },
  { value: 'channels', label: 'Channels', path: 'channels' },
  { value: 'insights', label: 'Published insights', path: 'insights' },
] as const;

/** Published insights of the folder's projects, newest first (a page of each project). */
function usePublishedInsights(projects: ProjectSummary[] | undefined) {
  const { graphql } = useFieldbook();
  const [state, setState] = useState<{ items: DocumentSummary[] | null; error: unknown }>({ items: null, error: null });
  // null until the folder is loaded, so an empty folder ('') still runs the effect once it is.
  const ids = projects ? projects.map((p) => p.id).join(',') : null;
  useEffect(() => {
    if (!projects) return;
    let stale = false;
    Promise.all(
      projects.map(async (p) => {
        const res = await graphql<{ insights: { nodes: DocumentSummary[] } }>(q.insights, {
          projectId: p.id,
          first: 20,
          published: true,
        });
        return res.insights.nodes.map((n) => ({ ...n, project: { id: p.id, title: p.title, color: p.color } }));
      }),
    ).then(
      (lists) =>
        !stale && setState({ items: lists.flat().sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)), error: null }),
      (error: unknown) => !stale && setState({ items: null, error }),
    );
    return () => {
      stale = true;
    };
  }, [ids]); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** /folders/{projectCategoryId} with tabs All, Projects, Channels and PublishedInsights (000 §2); the heading shows the folder path (002 §9). */
export function FolderPage() {
  const { folderId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const valid = UUID.test(folderId);
  const folder = useLoad<{ folder: Folder }>(q.folder, { id: folderId }, { skip: !valid });
  const f = folder.data?.folder;
  const insights = usePublishedInsights(f?.projects);
  const seg = pathname.split('/')[3] ?? '';
  const tab = TABS.find((t) => t.path === seg)?.value ?? 'all';

  if (!valid || isNotFound(folder.error))
    return <NotFoundPanel what="This folder" back={{ label: 'Go to folders', to: '/projects/folders' }} />;
  if (folder.error && !f)
    return (
      <ErrorNote error={folder.error} title="The folder could not be loaded" onRetry={() => void folder.reload()} />
    );
  if (!f) return <SectionLoader label="Loading the folder…" />;

  const projects =
    f.projects.length === 0 ? (
      <EmptyState icon={<IconLayoutGrid size={24} />} title="No projects in this folder">
        Move a project here from its settings.
      </EmptyState>
    ) : (
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        {f.projects.map((p) => (
          <ProjectCard key={p.id} project={p} />
        ))}
      </SimpleGrid>
    );
  const channels = (
    <EmptyState icon={<IconBroadcast size={24} />} title="No channels in this folder">
      Channels of imported customer feedback will be listed here once your workspace has some.
    </EmptyState>
  );
  const published = insights.error ? (
    <ErrorNote error={insights.error} title="Published insights could not be loaded" />
  ) : !insights.items ? (
    <SectionLoader label="Loading published insights…" />
  ) : insights.items.length === 0 ? (
    <EmptyState icon={<IconBulb size={24} />} title="No published insights yet">
      Insights published in this folder’s projects appear here.
    </EmptyState>
  ) : (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Published insights">
      {insights.items.map((d) => (
        <DocumentRow key={d.id} doc={d} kind="insight" showProject />
      ))}
    </Stack>
  );

  return (
    <PageFrame
      title={f.title}
      crumbs={[
        { label: 'Projects', to: '/projects/folders' },
        ...(f.parent ? [{ label: f.parent.title, to: `/folders/${f.parent.id}` }] : []),
      ]}
      description={
        <Group gap={6}>
          <IconFolder size={14} aria-hidden />
          <span title={f.ancestry.join(' / ')}>{f.path}</span>
        </Group>
      }
      actions={<FolderActions folder={f} onChanged={() => void folder.reload()} />}
    >
      <Tabs
        value={tab}
        onChange={(v) =>
          v && navigate(`/folders/${folderId}${v === 'all' ? '' : `/${TABS.find((t) => t.value === v)!.path}`}`)
        }
      >
        <Tabs.List aria-label="Folder contents" mb="lg">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value}>
            {tab === t.value && t.value === 'all' && (
              <Stack gap="xl">
                {f.children.length > 0 && (
                  <Section title="Folders">
                    <Group gap="sm">
                      {f.children.map((c) => (
                        <Paper key={c.id} withBorder px="md" py="sm">
                          <Group gap={8}>
                            <IconFolder size={16} aria-hidden />
                            <Anchor component={Link} to={`/folders/${c.id}`} fw={500}>
                              {c.title}
                            </Anchor>
                          </Group>
                        </Paper>
                      ))}
                    </Group>
                  </Section>
                )}
                <Section title="Projects">{projects}</Section>
                <Section title="Published insights">{published}</Section>
                <Section title="Channels">
                  <Text size="sm" c="dimmed">
                    No channels in this folder yet.
                  </Text>
                </Section>
              </Stack>
            )}
            {tab === t.value && t.value === 'projects' && projects}
            {tab === t.value && t.value === 'channels' && channels}
            {tab === t.value && t.value === 'insights' && published}
          </Tabs.Panel>
        ))}
      </Tabs>
    </PageFrame>
  );
}
