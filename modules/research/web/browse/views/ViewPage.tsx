import { Anchor, Badge, Button, Group, Paper, Table, Text } from '@mantine/core';
import { IconLayoutList } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { q, type Connection, type DocumentSummary, type HighlightSummary } from '../api.ts';
import { isNotFound } from '../ui/errors.ts';
import { UUID, formatDate, useLoad } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, NotFoundPanel, PageFrame, SectionLoader } from '../ui/layout.tsx';
import { DocumentRow, HighlightRow } from '../project/DocumentList.tsx';

export interface ProjectViewSummary {
  id: string;
  title: string;
  layout: 'BOARD' | 'CANVAS' | 'GRID' | 'LIST' | 'TABLE';
  objectType: 'HIGHLIGHT' | 'INSIGHT' | 'NOTE';
}

export const VIEWS = `query BrowseViews($projectId: ID!) { projectViews(projectId: $projectId) { id title layout objectType } }`;
const VIEW = `query BrowseView($id: ID!) { projectView(id: $id) { id title layout objectType project { id title } } }`;
const HIGHLIGHTS = `query BrowseViewHighlights($projectId: ID!) { highlights(projectId: $projectId, first: 100) { nodes { id text displayColor createdAt noteId note { id title project { id title } } } } }`;
const LAYOUT_LABEL: Record<ProjectViewSummary['layout'], string> = { BOARD: 'Board', CANVAS: 'Canvas', GRID: 'Grid', LIST: 'List', TABLE: 'Table' };

/** The project's views as links, shown above its sections. */
export function ViewLinks({ projectId }: { projectId: string }) {
  const views = useLoad<{ projectViews: ProjectViewSummary[] }>(VIEWS, { projectId });
  const list = views.data?.projectViews ?? [];
  if (!list.length) return null;
  return (
    <Group gap="xs" mb="md" component="nav" aria-label="Project views">
      <Text size="sm" c="dimmed">
        Views:
      </Text>
      {list.map((v) => (
        <Button key={v.id} component={Link} to={`/projects/${projectId}/v/${v.id}`} size="compact-sm" variant="default" leftSection={<IconLayoutList size={14} aria-hidden />}>
          {v.title}
        </Button>
      ))}
    </Group>
  );
}

/**
 * /projects/{projectId}/v/{viewId}: a project view's items as a table (TABLE) or a list (every
 * other layout, shown simply here), newest first.
 */
export function ViewPage() {
  const { projectId = '', viewId = '' } = useParams();
  const valid = UUID.test(projectId) && UUID.test(viewId);
  const view = useLoad<{ projectView: ProjectViewSummary & { project: { id: string; title: string } } }>(VIEW, { id: viewId }, { skip: !valid });
  const v = view.data?.projectView;
  const docs = useLoad<Record<string, Connection<DocumentSummary>>>(v?.objectType === 'INSIGHT' ? q.insights : q.notes, { projectId, first: 100 }, { skip: !v || v.objectType === 'HIGHLIGHT' });
  const highlights = useLoad<{ highlights: Connection<HighlightSummary> }>(HIGHLIGHTS, { projectId }, { skip: !v || v.objectType !== 'HIGHLIGHT' });

  if (!valid || isNotFound(view.error)) return <NotFoundPanel what="This view" back={{ label: 'Back to the project', to: `/projects/${projectId}` }} />;
  if (view.error && !v) return <ErrorNote error={view.error} title="The view could not be loaded" onRetry={() => void view.reload()} />;
  if (!v) return <SectionLoader label="Loading the view…" />;

  const kind = v.objectType === 'INSIGHT' ? 'insight' : 'note';
  const items = docs.data ? (v.objectType === 'INSIGHT' ? docs.data.insights : docs.data.notes)?.nodes : undefined;
  const error = docs.error ?? highlights.error;
  let body;
  if (error) body = <ErrorNote error={error} title="The items could not be loaded" />;
  else if (v.objectType === 'HIGHLIGHT') {
    const hs = highlights.data?.highlights.nodes;
    body = !hs ? (
      <SectionLoader />
    ) : hs.length === 0 ? (
      <EmptyState title="No highlights in this project yet" />
    ) : (
      <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 6 }}>
        {hs.map((h) => (
          <HighlightRow key={h.id} h={h} />
        ))}
      </ul>
    );
  } else if (!items) body = <SectionLoader />;
  else if (!items.length) body = <EmptyState title={`No ${kind}s in this project yet`} />;
  else if (v.layout === 'TABLE') {
    body = (
      <Paper withBorder>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Title</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Updated</Table.Th>
              <Table.Th>State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  <Anchor component={Link} to={kind === 'note' ? `/data/${d.id}` : `/insights/${d.id}`} fw={500}>
                    {d.title || `Untitled ${kind}`}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatDate(d.createdAt)}</Table.Td>
                <Table.Td>{formatDate(d.updatedAt)}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {d.published && <Badge color="teal" variant="light" radius="sm">Published</Badge>}
                    {d.archived && <Badge color="gray" variant="light" radius="sm">Archived</Badge>}
                    {d.locked && <Badge color="gray" variant="light" radius="sm">Locked</Badge>}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    );
  } else {
    body = (
      <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 6 }}>
        {items.map((d) => (
          <DocumentRow key={d.id} doc={d} kind={kind} />
        ))}
      </ul>
    );
  }

  return (
    <PageFrame
      title={v.title}
      crumbs={[
        { label: 'Projects', to: '/projects' },
        { label: v.project.title, to: `/projects/${projectId}` },
      ]}
      description={`${LAYOUT_LABEL[v.layout]} view of ${v.objectType === 'HIGHLIGHT' ? 'highlights' : `${kind}s`}${v.layout === 'TABLE' || v.layout === 'LIST' ? '' : ' (shown as a list)'}`}
    >
      {body}
    </PageFrame>
  );
}
