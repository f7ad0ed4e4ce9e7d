import { Alert, Anchor, Breadcrumbs, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '../../api/hooks.ts';
import { ops, type ProjectPlugin } from '../../api/operations.ts';
import { ErrorAlert } from '../../common/ErrorAlert.tsx';
import { SectionLoader } from '../../common/Loading.tsx';
import { ExtensionSlot, usePluginRemotes } from '../../extensions/ExtensionsProvider.tsx';
import { Page } from '../../layout/Page.tsx';
import { useServices } from '../../session/SessionProvider.tsx';
import { useWorkspace } from '../../session/WorkspaceProvider.tsx';

const PROJECT = `query ProjectForExtensions($id: ID!) { project(id: $id) { id title myAccess { level } } }`;

interface ProjectInfo {
  id: string;
  title: string;
  myAccess: { level: 'none' | 'read' | 'write' | 'full' };
}

function PluginSwitch({
  item,
  projectId,
  canManage,
  onChanged,
}: {
  item: ProjectPlugin;
  projectId: string;
  canManage: boolean;
  onChanged(): void;
}) {
  const { client } = useServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const { plugin } = item;

  async function toggle(enabled: boolean) {
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.setProjectPluginEnabled, { projectId, pluginId: plugin.id, enabled });
      notifications.show({
        color: 'teal',
        message: enabled ? `${plugin.name} is on in this project.` : `${plugin.name} is off in this project.`,
      });
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap={6}>
      <Switch
        label={plugin.name}
        description={plugin.problem ?? plugin.description ?? undefined}
        checked={item.enabled}
        disabled={!canManage || busy || plugin.state !== 'READY'}
        onChange={(e) => void toggle(e.currentTarget.checked)}
        size="md"
      />
      <ErrorAlert error={error} />
    </Stack>
  );
}

/** /projects/:projectId/settings/extensions: which installed plugins work in this project. */
export function ProjectExtensionsPage() {
  const { projectId = '' } = useParams();
  const { workspace } = useWorkspace();
  const project = useQuery<{ project: ProjectInfo | null }>(PROJECT, { id: projectId });
  const plugins = useQuery<{ projectPlugins: ProjectPlugin[] }>(ops.projectPlugins, { projectId });
  const remotes = usePluginRemotes(projectId, 'project.settings.panel/v1');
  const info = project.data?.project;
  const canManage = info?.myAccess.level === 'full';
  const list = plugins.data?.projectPlugins ?? [];
  const names = Object.fromEntries(list.map((p) => [p.plugin.id, p.plugin.name]));
  const base = `/projects/${projectId}`;

  return (
    <Page
      title={info ? `${info.title}: extensions` : 'Project extensions'}
      description="Which of the workspace’s extensions work in this project."
    >
      <Stack gap="lg">
        <Breadcrumbs separator="/" fz="sm" aria-label="Breadcrumb">
          <Anchor component={Link} to="/projects" size="sm">
            Projects
          </Anchor>
          <Anchor component={Link} to={base} size="sm">
            {info?.title ?? 'Project'}
          </Anchor>
          <Anchor component={Link} to={`${base}/settings`} size="sm">
            Settings
          </Anchor>
        </Breadcrumbs>
        <ErrorAlert
          error={project.error ?? plugins.error}
          onRetry={() => void Promise.all([project.reload(), plugins.reload()])}
        />
        {info && !canManage && (
          <Alert
            color="gray"
            variant="light"
            icon={<IconLock size={18} aria-hidden />}
            title="Only the project’s managers can change this"
          >
            You can see which extensions work in this project, but only people with full access to it can turn them on
            or off.
          </Alert>
        )}
        <Paper withBorder p="lg" component="section" aria-labelledby="project-extensions">
          <Title order={2} fz="lg" id="project-extensions">
            Extensions in this project
          </Title>
          <Text size="sm" c="dimmed" mt={4} mb="md">
            The extensions your workspace admins installed. Turn one on to let it work with this project’s notes and
            insights.
          </Text>
          {plugins.loading && !plugins.data ? (
            <SectionLoader label="Loading extensions" />
          ) : list.length === 0 ? (
            <Text size="sm" c="dimmed">
              No extensions are installed in this workspace. Workspace admins install them in Settings → Extensions.
            </Text>
          ) : (
            <Stack gap="md">
              {list.map((p) => (
                <PluginSwitch
                  key={p.plugin.id}
                  item={p}
                  projectId={projectId}
                  canManage={canManage}
                  onChanged={() => void Promise.all([plugins.reload(), remotes.reload()])}
                />
              ))}
            </Stack>
          )}
        </Paper>
        <ExtensionSlot
          name="project.settings.panel/v1"
          props={{ workspace: { id: workspace.id, name: workspace.name, subdomain: workspace.subdomain }, projectId }}
          extensions={remotes.extensions}
          failures={remotes.failures}
          names={names}
        />
      </Stack>
    </Page>
  );
}
