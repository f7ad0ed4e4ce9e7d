import { Button, Group, Tabs, Tooltip, ActionIcon } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBulb, IconFilePlus, IconSettings } from '@tabler/icons-react';
import { Suspense, lazy, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { q } from '../api.ts';
import { isNotFound } from '../ui/errors.ts';
import { useCan } from '../ui/hooks.ts';
import { ErrorNote, NotFoundPanel, PageFrame, SectionLoader, notifyError, usePageTitle } from '../ui/layout.tsx';
import { HighlightList } from './ProjectHighlights.tsx';
import { DocumentList } from './ProjectDocuments.tsx';
import { ProjectHeader } from './ProjectHeader.tsx';
import { RequestAccessPanel } from './RequestAccessPanel.tsx';
import { TagBoardPanel } from './TagBoardPanel.tsx';
import { useProject } from './useProject.ts';
import { ViewLinks } from '../views/ViewPage.tsx';
import { FollowButton } from '../ui/FollowButton.tsx';
import { StarButton } from '../ui/StarButton.tsx';

// The readme's editor (TipTap, ProseMirror) loads when the tab is opened, not with the project.
const Readme = lazy(() => import('./Readme.tsx').then((m) => ({ default: m.Readme })));

const TABS = ['notes', 'insights', 'highlights', 'readme', 'tags', 'charts'] as const;
type Tab = (typeof TABS)[number];
const LABELS: Record<Tab, string> = {
  notes: 'Notes',
  insights: 'Insights',
  highlights: 'Highlights',
  readme: 'Readme',
  tags: 'Tags',
  charts: 'Charts',
};

function tabPath(projectId: string, tab: Tab): string {
  // Charts are a page of their own (the dashboards module's), opened from this tab.
  if (tab === 'readme' || tab === 'tags' || tab === 'charts') return `/projects/${projectId}/${tab}`;
  return tab === 'notes' ? `/projects/${projectId}` : `/projects/${projectId}?tab=${tab}`;
}

/** The sub-paths /highlights, /insights and /notes redirect to the project page's tab (000 §2). */
export function ProjectTabRedirect() {
  const { projectId = '' } = useParams();
  const { pathname } = useLocation();
  const tab = pathname.split('/')[3] as Tab;
  return <Navigate to={tabPath(projectId, TABS.includes(tab) ? tab : 'notes')} replace />;
}

/** /projects/{projectId} (with /readme, /tags, /tags/b/{tagBoardId}): the project's notes, insights, highlights, readme and tags. */
export function ProjectPage() {
  const { projectId, valid, project, state } = useProject();
  const { tagBoardId } = useParams();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { graphql } = useFieldbook();
  const can = useCan();
  const [creating, setCreating] = useState<'note' | 'insight' | null>(null);
  // Bumped by every create: the document page loads on demand, so a person who goes back before it
  // appears returns to this same page, still mounted, whose lists must then show what they made.
  const [created, setCreated] = useState(0);
  usePageTitle(project?.title ?? 'Project');

  const seg = pathname.split('/')[3];
  const tab: Tab =
    seg === 'readme'
      ? 'readme'
      : seg === 'tags'
        ? 'tags'
        : TABS.includes(params.get('tab') as Tab)
          ? (params.get('tab') as Tab)
          : 'notes';

  // A project the person cannot read answers NOT_FOUND too; the panel tells a restricted one apart and offers to ask for access.
  if (valid && isNotFound(state.error))
    return <RequestAccessPanel projectId={projectId} viewerOnly={!can('notes:create')} />;
  if (!valid) return <NotFoundPanel what="This project" back={{ label: 'Go to projects', to: '/projects' }} />;
  if (state.error && !project)
    return (
      <ErrorNote error={state.error} title="The project could not be loaded" onRetry={() => void state.reload()} />
    );
  if (!project) return <SectionLoader label="Loading the project…" />;

  const canNote = project.myAccess.canEdit && can('notes:create');
  const canInsight = project.myAccess.canEdit && can('insights:create');

  async function create(kind: 'note' | 'insight') {
    setCreating(kind);
    try {
      if (kind === 'note') {
        const res = await graphql<{ createNote: { id: string } }>(q.createNote, { input: { projectId } });
        setCreated((n) => n + 1);
        navigate(`/data/${res.createNote.id}`);
      } else {
        const res = await graphql<{ createInsight: { id: string } }>(q.createInsight, { input: { projectId } });
        setCreated((n) => n + 1);
        navigate(`/insights/${res.createInsight.id}`);
      }
    } catch (err) {
      notifyError(err, kind === 'note' ? 'The note was not created' : 'The insight was not created');
    } finally {
      setCreating(null);
    }
  }

  const actions = (
    <Group gap="sm">
      {canInsight && (
        <Button
          variant="default"
          leftSection={<IconBulb size={16} aria-hidden />}
          loading={creating === 'insight'}
          onClick={() => void create('insight')}
        >
          New insight
        </Button>
      )}
      {canNote && (
        <Button
          leftSection={<IconFilePlus size={16} aria-hidden />}
          loading={creating === 'note'}
          onClick={() => void create('note')}
        >
          New note
        </Button>
      )}
      <FollowButton type="PROJECT" id={projectId} what="project" />
      <StarButton type="PROJECT" id={projectId} starred={project.starred} what="project" />
      <Tooltip label="Project settings">
        <ActionIcon
          component={Link}
          to={`/projects/${projectId}/settings`}
          variant="default"
          size="lg"
          aria-label="Project settings"
        >
          <IconSettings size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );

  const crumbs = [
    { label: 'Projects', to: '/projects' },
    ...(project.folder ? [{ label: project.folder.path, to: `/folders/${project.folder.id}` }] : []),
  ];

  return (
    <PageFrame
      title={project.title}
      heading={<ProjectHeader project={project} onChanged={() => void state.reload()} />}
      crumbs={crumbs}
      actions={actions}
    >
      <ViewLinks projectId={projectId} canAdd={project.myAccess.canEdit && can('projects:update')} />
      <Tabs value={tab} onChange={(v) => v && navigate(tabPath(projectId, v as Tab))}>
        <Tabs.List aria-label="Project sections" mb="lg">
          {TABS.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {LABELS[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t} value={t}>
            {tab === t && t === 'notes' && (
              <DocumentList
                key={created}
                projectId={projectId}
                kind="note"
                canCreate={canNote}
                canEdit={project.myAccess.canEdit}
                onCreate={() => void create('note')}
                creating={creating === 'note'}
              />
            )}
            {tab === t && t === 'insights' && (
              <DocumentList
                key={created}
                projectId={projectId}
                kind="insight"
                canCreate={canInsight}
                canEdit={project.myAccess.canEdit}
                onCreate={() => void create('insight')}
                creating={creating === 'insight'}
              />
            )}
            {tab === t && t === 'highlights' && (
              <HighlightList projectId={projectId} canEdit={project.myAccess.canEdit} />
            )}
            {tab === t && t === 'readme' && (
              <Suspense fallback={<SectionLoader />}>
                <Readme project={project} onChanged={() => void state.reload()} />
              </Suspense>
            )}
            {tab === t && t === 'tags' && <TagBoardPanel project={project} boardId={tagBoardId} />}
          </Tabs.Panel>
        ))}
      </Tabs>
    </PageFrame>
  );
}
