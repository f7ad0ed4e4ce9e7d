import { Alert, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconPlugConnected } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useQuery } from '../../api/hooks.ts';
import { ops, type ConnectedAccount, type Plugin, type UserIntegration } from '../../api/operations.ts';
import { ErrorAlert } from '../../common/ErrorAlert.tsx';
import { SectionLoader } from '../../common/Loading.tsx';
import { NeedsAdmin } from '../../common/NoAccess.tsx';
import { Page } from '../../layout/Page.tsx';
import { useServices } from '../../session/SessionProvider.tsx';
import { useWorkspace } from '../../session/WorkspaceProvider.tsx';
import { integrationOutcome } from './integration-urls.ts';

/** Asks the server for the provider's consent page and goes there (the server sets the xsrf cookie). */
export function useStartAuthorization() {
  const { client } = useServices();
  return async (pluginId: string, source: string, origin: string): Promise<void> => {
    const { startIntegrationAuthorization: url } = await client.request<{ startIntegrationAuthorization: string }>(
      ops.startIntegrationAuthorization,
      { pluginId, source, origin },
    );
    window.location.assign(url);
  };
}

/** The alert for people the provider just sent back here. */
function ReturnAlert({ names }: { names: Record<string, string> }) {
  const { search } = useLocation();
  const outcome = integrationOutcome(search);
  if (!outcome.integration) return null;
  const name = names[outcome.integration] ?? outcome.integration;
  if (outcome.error) {
    return (
      <Alert color="red" variant="light" role="alert" title={`${name} could not be connected`}>
        <Text size="sm">{outcome.error}</Text>
      </Alert>
    );
  }
  if (!outcome.connected) return null;
  return (
    <Alert
      color="teal"
      variant="light"
      role="status"
      icon={<IconCheck size={18} aria-hidden />}
      title={`${name} is connected`}
    >
      <Text size="sm">Its extension can now use the connected account.</Text>
    </Alert>
  );
}

/** One integration with its connected account and the Connect / Disconnect buttons. */
export function IntegrationRow({
  plugin,
  account,
  source,
  origin,
  disconnect,
  onChanged,
}: {
  plugin: Plugin;
  account: ConnectedAccount | null;
  source: string;
  origin: string;
  disconnect: string;
  onChanged(): void;
}) {
  const { client } = useServices();
  const start = useStartAuthorization();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const connected = account !== null;
  const id = `integration-${plugin.id}`;

  async function connect() {
    setBusy(true);
    setError(null);
    try {
      await start(plugin.id, source, origin);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  async function disconnectNow() {
    setBusy(true);
    setError(null);
    try {
      await client.request(disconnect, { pluginId: plugin.id });
      notifications.show({ color: 'teal', message: `${plugin.name} was disconnected.` });
      setConfirming(false);
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} fz="md" id={id}>
              {plugin.name}
            </Title>
            <Text size="sm" c="dimmed">
              {connected ? `Connected${account.label ? ` as ${account.label}` : ''}` : 'Not connected'}
            </Text>
          </Stack>
          {connected ? (
            <Button
              variant="default"
              color="red"
              onClick={() => setConfirming(true)}
              aria-label={`Disconnect ${plugin.name}`}
            >
              Disconnect
            </Button>
          ) : (
            <Button
              onClick={() => void connect()}
              loading={busy}
              disabled={plugin.state !== 'READY'}
              leftSection={<IconPlugConnected size={16} aria-hidden />}
              aria-label={`Connect ${plugin.name}`}
            >
              Connect
            </Button>
          )}
        </Group>
        {plugin.problem && (
          <Text size="sm" c="red.8">
            {plugin.problem}
          </Text>
        )}
        <ErrorAlert error={error} />
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={<Text fw={650}>Disconnect {plugin.name}</Text>}
        centered
      >
        <Text size="sm">
          Disconnect {account?.label ?? plugin.name}? Fieldbook stops acting through this account until someone connects
          it again.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={() => void disconnectNow()}>
            Disconnect
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}

/** /settings/integrations: the workspace's connected accounts. Workspace admins only. */
export function IntegrationsPage() {
  const { isAdmin } = useWorkspace();
  const q = useQuery<{ plugins: Plugin[] }>(ops.plugins, {}, { skip: !isAdmin });
  if (!isAdmin) return <NeedsAdmin what="connect integrations for this workspace" />;
  const list = (q.data?.plugins ?? []).filter((p) => p.installation && p.connection === 'WORKSPACE');
  const names = Object.fromEntries((q.data?.plugins ?? []).map((p) => [p.id, p.name]));
  return (
    <Page
      title="Integrations"
      description="Accounts this workspace connected at other services, used by its installed extensions."
    >
      <Stack gap="md">
        <ReturnAlert names={names} />
        <ErrorAlert error={q.error} onRetry={() => void q.reload()} />
        {q.loading && !q.data ? (
          <SectionLoader label="Loading integrations" />
        ) : q.data && list.length === 0 ? (
          <Text size="sm" c="dimmed">
            No installed extension connects a workspace account. Install one in{' '}
            <Link to="/settings/extensions">Extensions</Link>.
          </Text>
        ) : (
          list.map((p) => (
            <IntegrationRow
              key={p.id}
              plugin={p}
              account={p.installation?.connectedAccount ?? null}
              source="settings"
              origin="/settings/integrations"
              disconnect={ops.disconnectIntegration}
              onChanged={() => void q.reload()}
            />
          ))
        )}
      </Stack>
    </Page>
  );
}

/** /settings/user/integrations: the signed-in person's own connected accounts. Any member. */
export function MyIntegrationsPage() {
  const q = useQuery<{ myIntegrations: UserIntegration[] }>(ops.myIntegrations);
  const list = q.data?.myIntegrations ?? [];
  const names = Object.fromEntries(list.map((i) => [i.plugin.id, i.plugin.name]));
  return (
    <Page
      title="Your integrations"
      description="Your own accounts at other services, which extensions in this workspace use to act for you."
    >
      <Stack gap="md">
        <ReturnAlert names={names} />
        <ErrorAlert error={q.error} onRetry={() => void q.reload()} />
        {q.loading && !q.data ? (
          <SectionLoader label="Loading your integrations" />
        ) : q.data && list.length === 0 ? (
          <Text size="sm" c="dimmed">
            No extension in this workspace connects personal accounts yet.
          </Text>
        ) : (
          list.map((i) => (
            <IntegrationRow
              key={i.plugin.id}
              plugin={i.plugin}
              account={i.connectedAccount}
              source="settings"
              origin="/settings/user/integrations"
              disconnect={ops.disconnectMyIntegration}
              onChanged={() => void q.reload()}
            />
          ))
        )}
      </Stack>
    </Page>
  );
}
