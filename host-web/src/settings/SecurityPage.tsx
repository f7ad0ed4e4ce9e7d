import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '../api/hooks.ts';
import { ops, type ApiToken } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SettingsTable } from './SettingsTable.tsx';
import { SectionLoader } from '../common/Loading.tsx';
import { NeedsAdmin } from '../common/NoAccess.tsx';
import { Page } from '../layout/Page.tsx';
import { useServices } from '../session/SessionProvider.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';

/** 002 §5: at most five domain fields of 250 characters each. */
const MAX_DOMAINS = 5;
const DOMAIN = /^@?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={id}>
      <Title order={2} fz="lg" id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {description}
      </Text>
      {children}
    </Paper>
  );
}

function AllowedDomains() {
  const { workspace, reload } = useWorkspace();
  const { client } = useServices();
  const [domains, setDomains] = useState<string[]>(workspace.allowedDomains);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setDomains(workspace.allowedDomains), [workspace.allowedDomains]);
  const invalid = domains.filter((d) => !DOMAIN.test(d) || d.length > 250);
  const changed = JSON.stringify(domains) !== JSON.stringify(workspace.allowedDomains);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.setAllowedDomains, { domains: domains.map((d) => d.toLowerCase()) });
      notifications.show({ color: 'teal', message: 'Allowed email domains saved.' });
      await reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section
      title="Allowed email domains"
      description="People who sign up with an email at these domains can join this workspace without an invitation."
    >
      <Stack gap="sm">
        <TagsInput
          label="Domains"
          description={`Press Enter after each domain, e.g. example.com. Up to ${MAX_DOMAINS}.`}
          value={domains}
          onChange={setDomains}
          maxTags={MAX_DOMAINS}
          splitChars={[',', ' ']}
          clearable
          error={invalid.length ? `Not valid domains: ${invalid.join(', ')}` : undefined}
        />
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button onClick={() => void save()} loading={busy} disabled={!changed || invalid.length > 0}>
            Save domains
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

function PublicLinks() {
  const { workspace, reload } = useWorkspace();
  const { client } = useServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function toggle(enabled: boolean) {
    setBusy(true);
    setError(null);
    try {
      await client.request(ops.updateWorkspace, { input: { publicLinksDisabled: !enabled } });
      notifications.show({
        color: 'teal',
        message: enabled ? 'Public links are on.' : 'Public links are off. Existing public links stop working.',
      });
      await reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section
      title="Public links"
      description="Let members share insights, notes and highlights with anyone who has the link, without signing in."
    >
      <Stack gap="sm">
        <Switch
          label="Allow public links"
          checked={!workspace.publicLinksDisabled}
          onChange={(e) => void toggle(e.currentTarget.checked)}
          disabled={busy}
          size="md"
        />
        <ErrorAlert error={error} />
      </Stack>
    </Section>
  );
}

/** The signed-in person's own tokens in this workspace: also on their API tokens page, for members who are not admins. */
export function ApiTokens() {
  const { client } = useServices();
  const tokens = useQuery<{ apiTokens: ApiToken[]; apiTokenLimit: number }>(ops.apiTokens);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function create() {
    if (!name.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const { createApiToken } = await client.request<{ createApiToken: { token: string } }>(ops.createApiToken, {
        name: name.trim(),
      });
      setCreated(createApiToken.token);
      setName('');
      await tokens.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    try {
      await client.request(ops.revokeApiToken, { id: revoking.id });
      notifications.show({ color: 'teal', message: `The token “${revoking.name}” was revoked.` });
      setRevoking(null);
      await tokens.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const list = tokens.data?.apiTokens ?? [];
  const limit = tokens.data?.apiTokenLimit ?? null;
  const full = limit !== null && list.length >= limit;
  return (
    <Section
      title="API tokens"
      description="Tokens let scripts and integrations use the Fieldbook API as you, in this workspace only."
    >
      <Stack gap="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Token name"
              placeholder="e.g. Data warehouse sync"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={100}
              disabled={full}
              aria-describedby={limit !== null ? 'api-token-count' : undefined}
              style={{ flex: 1 }}
            />
            <Button
              type="submit"
              loading={busy}
              disabled={!name.trim() || full}
              leftSection={<IconKey size={16} aria-hidden />}
            >
              Create token
            </Button>
          </Group>
          {limit !== null && (
            <Text id="api-token-count" size="sm" c={full ? undefined : 'dimmed'} mt="xs">
              {full
                ? `You have ${list.length} of ${limit} API tokens, the most you can have in this workspace. Revoke one you no longer use to create another.`
                : `${list.length} of ${limit} API tokens in this workspace.`}
            </Text>
          )}
        </form>
        {created && (
          <Alert color="teal" variant="light" title="Copy your new token now" role="status">
            <Text size="sm" mb="xs">
              You will not see it again. Store it somewhere safe.
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Code
                block
                style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
                aria-label="New API token"
              >
                {created}
              </Code>
              <CopyButton value={created}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy'}>
                    <ActionIcon variant="light" onClick={copy} aria-label="Copy the token" size="lg">
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Alert>
        )}
        <ErrorAlert error={error ?? tokens.error} />
        {tokens.loading && !tokens.data ? (
          <SectionLoader label="Loading tokens" />
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            You have no API tokens in this workspace.
          </Text>
        ) : (
          <SettingsTable
            rows={list}
            rowKey={(t) => t.id}
            inSection
            columns={[
              {
                header: 'Name',
                cell: (t) => (
                  <Text size="sm" fw={600}>
                    {t.name}
                  </Text>
                ),
              },
              {
                header: 'Token',
                cell: (t) => (
                  <Text size="sm" ff="monospace">
                    ••••{t.lastFour}
                  </Text>
                ),
              },
              { header: 'Created', cell: (t) => <Text size="sm">{dateFormat.format(new Date(t.createdAt))}</Text> },
              {
                header: 'Last used',
                cell: (t) => (
                  <Text size="sm">{t.lastUsedAt ? dateFormat.format(new Date(t.lastUsedAt)) : 'Never'}</Text>
                ),
              },
              {
                header: 'Actions',
                actions: true,
                cell: (t) => (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => setRevoking(t)}
                    aria-label={`Revoke the token ${t.name}`}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                ),
              },
            ]}
          />
        )}
      </Stack>
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={<Text fw={650}>Revoke token</Text>}
        centered
      >
        <Text size="sm">Revoke “{revoking?.name}”? Anything using it stops working at once.</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setRevoking(null)}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={() => void revoke()}>
            Revoke
          </Button>
        </Group>
      </Modal>
    </Section>
  );
}

/** /settings/security: allowed domains, public links and API tokens. Workspace admins only. */
export function SecurityPage() {
  const { isAdmin } = useWorkspace();
  if (!isAdmin) return <NeedsAdmin what="change the security settings of this workspace" />;
  return (
    <Page title="Security" description="Control who can join this workspace and how its content can be shared.">
      <Stack gap="lg">
        <AllowedDomains />
        <PublicLinks />
        <ApiTokens />
      </Stack>
    </Page>
  );
}
