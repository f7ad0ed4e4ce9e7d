import { Anchor, Button, Card, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useFieldbook, type HostWorkspace } from '@fieldbook/extensions-sdk/web';
import { IconClock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { q, type DocumentSummary, type ProjectSummary } from '../api.ts';
import { timeAgo, useLoad } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, PageFrame, SectionLoader } from '../ui/layout.tsx';
import { ProjectIcon } from '../ui/look.tsx';
import { DocumentRow } from '../project/DocumentList.tsx';

type Kind = 'all' | 'notes' | 'insights' | 'projects';

function useRecent(mine: boolean, first: number) {
  const notes = useLoad<{ recentNotes: DocumentSummary[] }>(q.recentNotes, { first, createdByMe: mine });
  const insights = useLoad<{ recentInsights: DocumentSummary[] }>(q.recentInsights, { first, createdByMe: mine });
  const projects = useLoad<{ projects: ProjectSummary[] }>(q.projects, {});
  return { notes, insights, projects };
}

function DocList({
  items,
  kind,
  empty,
}: {
  items: DocumentSummary[] | undefined;
  kind: 'note' | 'insight';
  empty: string;
}) {
  if (!items) return <SectionLoader />;
  if (!items.length) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Stack
      gap={6}
      component="ul"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
      aria-label={kind === 'note' ? 'Notes' : 'Insights'}
    >
      {items.map((d) => (
        <DocumentRow key={d.id} doc={d} kind={kind} showProject />
      ))}
    </Stack>
  );
}

function ProjectList({ items, empty }: { items: ProjectSummary[] | undefined; empty: string }) {
  if (!items) return <SectionLoader />;
  if (!items.length) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {items.map((p) => (
        <Card key={p.id} withBorder padding="sm">
          <Group gap="sm" wrap="nowrap">
            <ProjectIcon icon={p.icon} color={p.color} size={30} />
            <div style={{ minWidth: 0 }}>
              <Anchor component={Link} to={`/projects/${p.id}`} fw={500} c="dark" truncate display="block">
                {p.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                Updated {timeAgo(p.updatedAt)}
              </Text>
            </div>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * /recent (with /recent/{filter}) and /your-work (with /insights, /projects): recently updated
 * notes, insights and projects across the workspace, or those the viewer created.
 */
export function RecentPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { viewer } = useFieldbook();
  const mine = pathname.startsWith('/your-work');
  const base = mine ? '/your-work' : '/recent';
  const seg = (pathname.split('/')[2] ?? '') as Kind;
  const kinds: Kind[] = mine ? ['all', 'insights', 'projects'] : ['all', 'notes', 'insights', 'projects'];
  const kind: Kind = kinds.includes(seg) ? seg : 'all';
  const { notes, insights, projects } = useRecent(mine, kind === 'all' ? 10 : 50);
  const error = notes.error ?? insights.error ?? projects.error;
  const projectList = projects.data?.projects
    .filter((p) => !mine || p.createdById === viewer?.id)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, kind === 'all' ? 6 : 50);
  const label: Record<Kind, string> = {
    all: mine ? 'Everything' : 'All',
    notes: 'Notes',
    insights: 'Insights',
    projects: 'Projects',
  };

  const notesBlock = (
    <DocList
      items={notes.data?.recentNotes}
      kind="note"
      empty={mine ? 'You have not created notes yet.' : 'No notes yet.'}
    />
  );
  const insightsBlock = (
    <DocList
      items={insights.data?.recentInsights}
      kind="insight"
      empty={mine ? 'You have not created insights yet.' : 'No insights yet.'}
    />
  );
  const projectsBlock = (
    <ProjectList items={projectList} empty={mine ? 'You have not created projects yet.' : 'No projects yet.'} />
  );

  return (
    <PageFrame
      title={mine ? 'Your work' : 'Recent'}
      description={
        mine
          ? 'Notes, insights and projects you created, most recently updated first.'
          : 'What changed lately in the projects you can open.'
      }
      width="content"
    >
      <Tabs value={kind} onChange={(v) => v && navigate(v === 'all' ? base : `${base}/${v}`)}>
        <Tabs.List aria-label={mine ? 'Your work' : 'Recent'} mb="lg">
          {kinds.map((k) => (
            <Tabs.Tab key={k} value={k}>
              {label[k]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {kinds.map((k) => (
          <Tabs.Panel key={k} value={k}>
            {k === kind && (
              <Stack gap="xl">
                {error ? <ErrorNote error={error} title="Recent work could not be loaded" /> : null}
                {kind === 'all' && (
                  <>
                    <Block title="Notes">{notesBlock}</Block>
                    <Block title="Insights">{insightsBlock}</Block>
                    <Block title="Projects">{projectsBlock}</Block>
                  </>
                )}
                {kind === 'notes' && notesBlock}
                {kind === 'insights' && insightsBlock}
                {kind === 'projects' && projectsBlock}
              </Stack>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </PageFrame>
  );
}

/** The home page's research card (slot `home.card/v1`): the latest notes and insights, and links onwards. */
export function HomeResearchCard(_props: { workspace: HostWorkspace }) {
  const notes = useLoad<{ recentNotes: DocumentSummary[] }>(q.recentNotes, { first: 5 });
  const insights = useLoad<{ recentInsights: DocumentSummary[] }>(q.recentInsights, { first: 5, published: true });
  const error = notes.error ?? insights.error;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Group gap={8}>
          <IconClock size={18} aria-hidden />
          <Title order={2} fz="lg">
            Recent research
          </Title>
        </Group>
        <Group gap="xs">
          <Button component={Link} to="/your-work" variant="subtle" size="compact-sm">
            Your work
          </Button>
          <Button component={Link} to="/recent" variant="light" size="compact-sm">
            See all recent
          </Button>
        </Group>
      </Group>
      {error ? (
        <ErrorNote error={error} title="Recent research could not be loaded" />
      ) : !notes.data || !insights.data ? (
        <SectionLoader />
      ) : !notes.data.recentNotes.length && !insights.data.recentInsights.length ? (
        <EmptyState
          title="Nothing here yet"
          action={
            <Button component={Link} to="/projects">
              Open projects
            </Button>
          }
        >
          Notes and published insights from your projects will show up here.
        </EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Block title="Latest notes">
            <DocList items={notes.data.recentNotes} kind="note" empty="No notes yet." />
          </Block>
          <Block title="Newly published insights">
            <DocList items={insights.data.recentInsights} kind="insight" empty="No published insights yet." />
          </Block>
        </SimpleGrid>
      )}
    </Card>
  );
}
