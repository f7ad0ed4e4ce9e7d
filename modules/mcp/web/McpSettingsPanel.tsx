import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFieldbook, useGraphQL, type HostWorkspace } from '@fieldbook/extensions-sdk/web';
import { useEffect, useState } from 'react';
import { clientSnippets } from './snippets.ts';

interface McpSettings {
  allowWrites: boolean;
  url: string;
}

function Copy({ value, what }: { value: string; what: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button variant="default" size="xs" onClick={copy} aria-label={`Copy ${what}`}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}

/**
 * On /settings/ai: the MCP URL to give Claude, ChatGPT or an IDE, how to connect each, and the
 * admin's switch that lets MCP clients make changes (read tools are always on).
 */
export function McpSettingsPanel(_: { workspace: HostWorkspace }) {
  const host = useFieldbook();
  const loaded = useGraphQL<{ mcpSettings: McpSettings }>(`{ mcpSettings { allowWrites url } }`);
  const [settings, setSettings] = useState<McpSettings | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => setSettings(loaded.data?.mcpSettings ?? null), [loaded.data]);

  async function allowWrites(allowWrites: boolean) {
    setSaving(true);
    setMessage(null);
    try {
      const res = await host.graphql<{ updateMcpSettings: McpSettings }>(
        `mutation($input: UpdateMcpSettingsInput!) { updateMcpSettings(input: $input) { allowWrites url } }`,
        { input: { allowWrites } },
      );
      setSettings(res.updateMcpSettings);
      setMessage({
        ok: true,
        text: allowWrites
          ? 'MCP clients may now make changes, as the person whose token they use.'
          : 'MCP clients can now only read.',
      });
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="ai-mcp">
      <Title order={2} fz="lg" id="ai-mcp">
        Use Fieldbook from an AI assistant (MCP)
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        Claude, ChatGPT and IDEs that speak the Model Context Protocol can search and read this workspace with the tools
        Fieldbook’s agents use. Each person connects with their own API token (
        <Anchor href="/settings/user/api-tokens" underline="always">
          API tokens
        </Anchor>
        , under You in the sidebar) and sees exactly what they may see here.
      </Text>
      {!settings ? (
        loaded.error ? (
          <Alert color="red" mt="sm">
            {loaded.error.message}
          </Alert>
        ) : (
          <Text size="sm" mt="sm">
            Loading…
          </Text>
        )
      ) : (
        <>
          <Group align="end" gap="xs" mt="md">
            <TextInput
              label="MCP server URL"
              description="Streamable HTTP; send the token as “Authorization: Bearer <token>”."
              value={settings.url}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
              style={{ flex: 1 }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            <Copy value={settings.url} what="the MCP server URL" />
          </Group>
          <Switch
            mt="md"
            label="Allow MCP clients to make changes"
            description="Off: clients only search and read. On: they may also create and edit notes, as the person whose token they use. Every tool call is in the audit log."
            checked={settings.allowWrites}
            disabled={saving}
            onChange={(e) => void allowWrites(e.currentTarget.checked)}
          />
          {message && (
            <Alert color={message.ok ? 'green' : 'red'} mt="sm" role="status">
              {message.text}
            </Alert>
          )}
          <Title order={3} fz="md" mt="lg">
            Connect a client
          </Title>
          <Tabs defaultValue="claude-desktop" mt="xs">
            <Tabs.List>
              {clientSnippets(settings.url).map((s) => (
                <Tabs.Tab key={s.id} value={s.id}>
                  {s.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {clientSnippets(settings.url).map((s) => (
              <Tabs.Panel key={s.id} value={s.id} pt="sm">
                <Group justify="space-between" align="center" mb={6}>
                  <Text size="sm">{s.where}</Text>
                  <Copy value={s.code} what={`the ${s.label} configuration`} />
                </Group>
                <Code block>{s.code}</Code>
              </Tabs.Panel>
            ))}
          </Tabs>
        </>
      )}
    </Paper>
  );
}
