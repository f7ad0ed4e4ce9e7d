import { Alert, Anchor, Badge, Button, Code, Group, List, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlugConnected, IconPuzzle, IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useQuery } from '../../api/hooks.ts';
import {
  ops,
  type ExtensionLimits,
  type Plugin,
  type PluginLoadFailure,
  type PluginOrigin,
} from '../../api/operations.ts';
import { ErrorAlert } from '../../common/ErrorAlert.tsx';
import { SectionLoader } from '../../common/Loading.tsx';
import { NeedsAdmin } from '../../common/NoAccess.tsx';
import { useExtensions } from '../../extensions/ExtensionsProvider.tsx';
import { Page } from '../../layout/Page.tsx';
import { useServices } from '../../session/SessionProvider.tsx';
import { useWorkspace } from '../../session/WorkspaceProvider.tsx';
import { PLUGIN_DOCS_URL } from './docs.ts';
import { PluginSettingsForm } from './PluginSettingsForm.tsx';
import { WebhookUrl } from './WebhookUrl.tsx';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function limitText(limits: ExtensionLimits): string {
  return limits.maximum === null
    ? `${plural(limits.installed, 'extension', 'extensions')} installed`
    : `${limits.installed} of ${limits.maximum} extensions installed`;
}

/** Where a plugin came from, in the words an admin would look it up by. */
export function originText(origin: PluginOrigin): string {
  const version = origin.packageVersion ? ` ${origin.packageVersion}` : '';
  const where =
    origin.kind === 'NPM'
      ? `npm package ${origin.packageName ?? ''}${version}`
      : origin.kind === 'BUNDLED'
        ? `Bundled${origin.packageName ? ` (${origin.packageName}${version})` : ''}`
        : 'Built into Fieldbook';
  return origin.path ? `${where} · ${origin.path}` : where;
}

function OriginLine({ origin }: { origin: PluginOrigin }) {
  return (
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {originText(origin)}
    </Text>
  );
}

/** A plugin package the server could not load: listed so an admin sees it and why, never installable. */
function FailureCard({ failure, index }: { failure: PluginLoadFailure; index: number }) {
  const id = `plugin-failure-${index}`;
  return (
    <Paper withBorder p="lg" component="article" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} fz="lg" id={id} style={{ overflowWrap: 'anywhere' }}>
              {failure.name}
            </Title>
            <OriginLine origin={failure.origin} />
          </Stack>
          <Badge color="red" variant="light">
            Failed
          </Badge>
        </Group>
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title="This plugin failed to load"
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {failure.problem}
          </Text>
        </Alert>
      </Stack>
    </Paper>
  );
}

function StateBadge({ plugin }: { plugin: Plugin }) {
  if (plugin.state === 'FAILED')
    return (
      <Badge color="red" variant="light">
        Failed
      </Badge>
    );
  if (plugin.state === 'NOT_CONFIGURED')
    return (
      <Badge color="yellow" variant="light">
        Not configured
      </Badge>
    );
  if (plugin.installation?.pendingPermissions.length)
    return (
      <Badge color="yellow" variant="light">
        Needs approval
      </Badge>
    );
  if (plugin.installation)
    return (
      <Badge color="teal" variant="light">
        Installed
      </Badge>
    );
  return (
    <Badge color="gray" variant="light">
      Available
    </Badge>
  );
}

/**
 * A new version of an installed plugin asks for more than an admin approved: it runs without the
 * new permissions until an admin approves them here.
 */
function PendingPermissions({ plugin, onApproved }: { plugin: Plugin; onApproved(): void }) {
  const { client } = useServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const pending = plugin.installation?.pendingPermissions ?? [];
  if (pending.length === 0) return null;
  const titleId = `plugin-${plugin.id}-pending`;

  async function approve() {
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.approvePluginPermissions, { pluginId: plugin.id });
      notifications.show({ color: 'teal', message: `${plugin.name} may now use its new permissions.` });
      onApproved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconShieldCheck size={18} aria-hidden />}
      title={<span id={titleId}>Needs approval: {pending.map((p) => p.description).join('; ')}</span>}
      role="region"
      aria-labelledby={titleId}
    >
      <Stack gap="xs">
        <Text size="sm">
          Version {plugin.version} of {plugin.name} asks for more than was approved. It keeps working without these
          until you approve them:
        </Text>
        <List size="sm" spacing={2}>
          {pending.map((p) => (
            <List.Item key={p.name}>
              <Code>{p.name}</Code> {p.description}
            </List.Item>
          ))}
        </List>
        <ErrorAlert error={error} />
        <Group>
          <Button
            size="xs"
            loading={busy}
            onClick={() => void approve()}
            aria-label={`Approve new permissions of ${plugin.name}`}
          >
            Approve
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function PluginCard({ plugin, atLimit, onChanged }: { plugin: Plugin; atLimit: boolean; onChanged(): void }) {
  const { client } = useServices();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = `plugin-${plugin.id}`;
  const usable = plugin.state === 'READY';
  const installed = plugin.installation;

  async function installWithoutSettings() {
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.installPlugin, { pluginId: plugin.id, settings: [] });
      notifications.show({ color: 'teal', message: `${plugin.name} is installed.` });
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function uninstall() {
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.uninstallPlugin, { pluginId: plugin.id });
      notifications.show({ color: 'teal', message: `${plugin.name} was uninstalled.` });
      setRemoving(false);
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" component="article" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Group gap="xs">
              <Title order={2} fz="lg" id={id}>
                {plugin.name}
              </Title>
              <Text size="sm" c="dimmed">
                {plugin.version}
              </Text>
            </Group>
            <OriginLine origin={plugin.origin} />
            {plugin.description && <Text size="sm">{plugin.description}</Text>}
          </Stack>
          <StateBadge plugin={plugin} />
        </Group>
        {plugin.problem && (
          <Alert
            color={plugin.state === 'FAILED' ? 'red' : 'yellow'}
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={
              plugin.state === 'FAILED' ? 'This plugin failed to start' : 'This plugin is not configured on the server'
            }
          >
            <Text size="sm">{plugin.problem}</Text>
          </Alert>
        )}
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {installed ? 'What it may do' : 'What it may do once installed'}
          </Text>
          {plugin.permissions.length === 0 ? (
            <Text size="sm" c="dimmed">
              It asks for no access to your workspace’s data.
            </Text>
          ) : (
            <List size="sm" spacing={2}>
              {plugin.permissions.map((p) => (
                <List.Item key={p.name}>
                  <Code>{p.name}</Code> {p.description}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
        <PendingPermissions plugin={plugin} onApproved={onChanged} />
        {installed && (
          <Text size="sm" c="dimmed">
            Enabled in {plural(installed.enabledProjectCount, 'project', 'projects')}
            {installed.connectedAccount?.label ? ` · Connected to ${installed.connectedAccount.label}` : ''}
          </Text>
        )}
        {installed?.webhookUrl && <WebhookUrl plugin={plugin} url={installed.webhookUrl} onRotated={onChanged} />}
        <ErrorAlert error={error} />
        <Group gap="sm">
          {installed ? (
            <>
              {plugin.settingFields.length > 0 && (
                <Button variant="default" onClick={() => setEditing(true)} aria-label={`Settings of ${plugin.name}`}>
                  Settings
                </Button>
              )}
              <Button
                variant="subtle"
                color="red"
                onClick={() => setRemoving(true)}
                aria-label={`Uninstall ${plugin.name}`}
              >
                Uninstall
              </Button>
            </>
          ) : (
            <Button
              disabled={!usable || atLimit}
              loading={busy}
              onClick={() => (plugin.settingFields.length ? setEditing(true) : void installWithoutSettings())}
              aria-label={`Install ${plugin.name}`}
              title={
                !usable
                  ? 'This plugin cannot be installed until the problem above is fixed.'
                  : atLimit
                    ? 'The workspace has installed as many extensions as it may.'
                    : undefined
              }
            >
              Install
            </Button>
          )}
        </Group>
      </Stack>
      {editing && (
        <PluginSettingsForm plugin={plugin} opened={editing} onClose={() => setEditing(false)} onSaved={onChanged} />
      )}
      <Modal
        opened={removing}
        onClose={() => setRemoving(false)}
        title={<Text fw={650}>Uninstall {plugin.name}</Text>}
        centered
      >
        <Text size="sm">
          Uninstall {plugin.name}? Its settings and connected accounts are removed, and it stops working in every
          project.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setRemoving(false)}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={() => void uninstall()}>
            Uninstall
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}

function EmptyState() {
  return (
    <Paper withBorder p="xl">
      <Stack gap="sm" align="flex-start">
        <IconPuzzle size={28} aria-hidden />
        <Title order={2} fz="lg">
          No plugins are available
        </Title>
        <Text size="sm">
          Plugins are added by whoever runs this Fieldbook server: each one is a package in the server’s{' '}
          <Code>plugins/</Code> folder or an npm package named in <Code>FIELDBOOK_PLUGINS</Code>, loaded when the server
          starts. Once one is there, you can install it here.
        </Text>
        <Anchor href={PLUGIN_DOCS_URL} target="_blank" rel="noreferrer" size="sm">
          How to add a plugin
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** /settings/extensions: every plugin this Fieldbook has, installed or not. Workspace admins only. */
export function ExtensionsPage() {
  const { isAdmin } = useWorkspace();
  const { failures: webFailures, reloadRemotes } = useExtensions();
  const q = useQuery<{ plugins: Plugin[]; extensionLimits: ExtensionLimits }>(ops.plugins, {}, { skip: !isAdmin });
  const failed = useQuery<{ pluginLoadFailures: PluginLoadFailure[] }>(ops.pluginLoadFailures, {}, { skip: !isAdmin });
  if (!isAdmin) return <NeedsAdmin what="install and set up extensions" />;
  const plugins = q.data?.plugins ?? [];
  const failures = failed.data?.pluginLoadFailures ?? [];
  const limits = q.data?.extensionLimits;
  const atLimit = limits?.maximum != null && limits.installed >= limits.maximum;
  return (
    <Page
      title="Extensions"
      description="Plugins add integrations and features to this workspace. See what each may do before you install it."
      actions={
        limits && (
          <Group gap={6}>
            <IconPlugConnected size={16} aria-hidden />
            <Text size="sm" fw={600}>
              {limitText(limits)}
            </Text>
          </Group>
        )
      }
    >
      <Stack gap="lg">
        <ErrorAlert error={q.error} onRetry={() => void q.reload()} />
        {webFailures.map((f) => (
          <Alert key={f.name} color="red" variant="light" title={`The web part of “${f.name}” could not be loaded`}>
            <Text size="sm">{f.error}</Text>
          </Alert>
        ))}
        <ErrorAlert error={failed.error} onRetry={() => void failed.reload()} />
        {q.loading && !q.data ? (
          <SectionLoader label="Loading extensions" />
        ) : q.data && plugins.length === 0 && failures.length === 0 ? (
          <EmptyState />
        ) : (
          plugins.map((p) => (
            <PluginCard
              key={p.id}
              plugin={p}
              atLimit={atLimit}
              onChanged={() => {
                void q.reload();
                reloadRemotes();
              }}
            />
          ))
        )}
        {failures.map((f, i) => (
          <FailureCard key={`${f.name}-${i}`} failure={f} index={i} />
        ))}
      </Stack>
    </Page>
  );
}
