import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Container,
  Group,
  Loader,
  Menu,
  SimpleGrid,
  Text,
  Title,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { ShareDialog } from '@fieldbook/research/web/sharing';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Q, TYPE_LABELS, type ProjectChart } from './api.ts';
import { ChartCard } from './ChartCard.tsx';
import { ChartEditor, type ChartDraft } from './ChartEditor.tsx';
import { CHART_SHARE_SCOPE } from './share-scope.ts';

/** /projects/{projectId}/charts: the project's charts; contributors with edit access make and change them. */
export function ProjectChartsPage() {
  const { projectId = '' } = useParams();
  const host = useFieldbook();
  const project = useGraphQL<{ project: { id: string; title: string; myAccess: { canEdit: boolean } } }>(Q.project, {
    id: projectId,
  });
  const charts = useGraphQL<{ projectCharts: ProjectChart[] }>(Q.projectCharts, { p: projectId });
  const [editing, setEditing] = useState<ProjectChart | 'new' | null>(null);
  const [sharing, setSharing] = useState<ProjectChart | null>(null);
  // Sharing widens who may read, so it takes the right to change access (Contributor and above).
  const canShare = host.permissions.includes('acl:write');
  const title = project.data?.project.title;
  useEffect(() => {
    if (title) document.title = `Charts · ${title} · Fieldbook`;
  }, [title]);

  const canEdit = (project.data?.project.myAccess.canEdit ?? false) && host.permissions.includes('projects:update');

  async function save(draft: ChartDraft) {
    const input = {
      title: draft.title,
      metric: draft.metric,
      groupBy: draft.groupBy,
      type: draft.type,
      filter: draft.filter,
    };
    if (editing && editing !== 'new') await host.graphql(Q.updateChart, { id: editing.id, input });
    else await host.graphql(Q.createChart, { p: projectId, input });
    setEditing(null);
    await charts.refetch();
  }

  async function remove(chart: ProjectChart) {
    if (!window.confirm(`Delete the chart “${chart.title}”? Dashboards showing it lose it.`)) return;
    await host.graphql(Q.deleteChart, { id: chart.id });
    await charts.refetch();
  }

  const error = project.error ?? charts.error;
  return (
    <Container size={1084} py="lg">
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to="/projects">
          Projects
        </Anchor>
        <Anchor component={Link} to={`/projects/${projectId}`} lineClamp={1} maw={400}>
          {title ?? 'Project'}
        </Anchor>
      </Breadcrumbs>
      <Group justify="space-between" mb="md">
        <Title order={1}>Charts</Title>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            New chart
          </Button>
        )}
      </Group>
      {error && (
        <Alert color="red" title="The charts could not be loaded">
          {error.message}
        </Alert>
      )}
      {!charts.data && !error && <Loader aria-label="Loading charts" />}
      {charts.data && !charts.data.projectCharts.length && (
        <Text c="dimmed">
          No charts yet.{' '}
          {canEdit ? 'A chart counts this project’s highlights, notes or text per tag or tag group.' : ''}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {charts.data?.projectCharts.map((c) => (
          <ChartCard
            key={c.id}
            chart={c}
            onShare={canShare ? () => setSharing(c) : undefined}
            subtitle={
              <Text size="xs" c="dimmed">
                {TYPE_LABELS[c.type]} chart
              </Text>
            }
            menu={
              c.canEdit ? (
                <>
                  <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={() => setEditing(c)}>
                    Edit chart
                  </Menu.Item>
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    onClick={() => void remove(c)}
                  >
                    Delete chart
                  </Menu.Item>
                </>
              ) : undefined
            }
          />
        ))}
      </SimpleGrid>
      {sharing && (
        <ShareDialog
          opened
          onClose={() => setSharing(null)}
          objectType="projectChart"
          objectId={sharing.id}
          what="chart"
          scope={CHART_SHARE_SCOPE}
        />
      )}
      {editing && (
        <ChartEditor
          key={editing === 'new' ? 'new' : editing.id}
          projectId={projectId}
          chart={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
          onSave={save}
        />
      )}
    </Container>
  );
}
