import { Alert, Button, Code, Group, NumberInput, Paper, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { Slot, useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useEffect, useState } from 'react';

interface Settings {
  enabled: boolean;
  features: { summaries: boolean; ask: boolean; translation: boolean };
  modes: Record<'summarize' | 'highlights' | 'tags' | 'redact' | 'insights', 'On' | 'Suggest' | 'Off'>;
  monthlyTokenCap: number | null;
  usage: { month: string; promptTokens: number; completionTokens: number; calls: number };
  model: { configured: boolean; chatModel: string | null; embeddingModel: string | null; endpointHost: string | null };
}
const FIELDS = `enabled features { summaries ask translation } modes { summarize highlights tags redact insights } monthlyTokenCap usage { month promptTokens completionTokens calls } model { configured chatModel embeddingModel endpointHost }`;
/** What each step does in each mode, as the admin choosing it needs to know. */
const STEPS: Array<{ key: keyof Settings['modes']; label: string; does: string; local: string }> = [
  {
    key: 'redact',
    label: 'Redact',
    does: 'On: blanks out email addresses, phone, card and social security numbers in the note’s text. Suggest: lists them for someone to redact.',
    local: 'Runs without a model.',
  },
  {
    key: 'highlights',
    label: 'Highlights',
    does: 'On: highlights the passages that matter. Suggest: proposes them, to accept or reject.',
    local: 'Without a model: the note’s key sentences.',
  },
  {
    key: 'tags',
    label: 'Tags',
    does: 'On: tags the note’s highlights with the workspace’s existing tags. Suggest: proposes the tags.',
    local: 'Needs a model.',
  },
  {
    key: 'summarize',
    label: 'Summarize',
    does: 'On: writes the note’s AI summary. Suggest: offers one to accept.',
    local: 'Without a model: quoted key sentences.',
  },
  {
    key: 'insights',
    label: 'Insights',
    does: 'On: drafts an unpublished insight from the note’s highlights. Suggest: offers the draft.',
    local: 'Needs a model.',
  },
];
const number = new Intl.NumberFormat('en-US');

/** /settings/ai: workspace admins turn AI on or off, pick features and automation modes, and cap its monthly tokens. */
export function AiSettingsPage() {
  const host = useFieldbook();
  const loaded = useGraphQL<{ aiSettings: Settings }>(`{ aiSettings { ${FIELDS} } }`);
  const [s, setS] = useState<Settings | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => setS(loaded.data?.aiSettings ?? null), [loaded.data]);
  if (!s) return loaded.error ? <Alert color="red">{loaded.error.message}</Alert> : <Text>Loading…</Text>;

  async function save() {
    if (!s) return;
    setSaving(true);
    setMessage(null);
    try {
      const res = await host.graphql<{ updateAiSettings: Settings }>(
        `mutation($input: UpdateAiSettingsInput!) { updateAiSettings(input: $input) { ${FIELDS} } }`,
        {
          input: { enabled: s.enabled, features: s.features, modes: s.modes, monthlyTokenCap: s.monthlyTokenCap },
        },
      );
      setS(res.updateAiSettings);
      setMessage({ ok: true, text: 'AI settings saved.' });
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setSaving(false);
    }
  }
  async function rebuild() {
    const res = await host.graphql<{ rebuildAiEmbeddings: boolean }>(`mutation { rebuildAiEmbeddings }`);
    setMessage({
      ok: res.rebuildAiEmbeddings,
      text: res.rebuildAiEmbeddings
        ? 'Embeddings are being rebuilt in the background.'
        : 'No embedding model is configured (OPENAI_EMBEDDING_MODEL).',
    });
  }
  const used = s.usage.promptTokens + s.usage.completionTokens;

  return (
    <Stack maw={760} p="md" gap="md">
      <div>
        <Title order={1} fz="xl">
          AI
        </Title>
        <Text size="sm" c="dimmed">
          Summaries and Ask quote only words found in their sources, and say which model wrote them.
        </Text>
      </div>
      <Paper withBorder p="lg" component="section" aria-labelledby="ai-model">
        <Title order={2} fz="lg" id="ai-model">
          Model
        </Title>
        {s.model.configured ? (
          <Text size="sm" mt="xs">
            Chat model <Code>{s.model.chatModel}</Code> at <Code>{s.model.endpointHost}</Code>
            {s.model.embeddingModel ? (
              <>
                , embeddings with <Code>{s.model.embeddingModel}</Code>
              </>
            ) : (
              ', no embedding model (Ask retrieves by words only)'
            )}
            .
          </Text>
        ) : (
          <Text size="sm" mt="xs">
            No AI model is configured: summaries quote key sentences and Ask answers with sentences from matching items
            (“Local summary (no AI model configured)”). Set <Code>OPENAI_BASE_URL</Code>, <Code>OPENAI_API_KEY</Code>{' '}
            and <Code>OPENAI_CHAT_MODEL</Code> for any OpenAI-compatible server.
          </Text>
        )}
        {s.model.embeddingModel && (
          <Button size="xs" variant="light" mt="sm" onClick={() => void rebuild()}>
            Rebuild embeddings
          </Button>
        )}
      </Paper>
      <Paper withBorder p="lg" component="section" aria-labelledby="ai-features">
        <Title order={2} fz="lg" id="ai-features">
          Features
        </Title>
        <Stack gap="xs" mt="sm">
          <Switch
            label="AI in this workspace"
            checked={s.enabled}
            onChange={(e) => setS({ ...s, enabled: e.currentTarget.checked })}
          />
          <Switch
            label="Summaries"
            disabled={!s.enabled}
            checked={s.features.summaries}
            onChange={(e) => setS({ ...s, features: { ...s.features, summaries: e.currentTarget.checked } })}
          />
          <Switch
            label="Ask"
            disabled={!s.enabled}
            checked={s.features.ask}
            onChange={(e) => setS({ ...s, features: { ...s.features, ask: e.currentTarget.checked } })}
          />
          <Switch
            label="Translation"
            disabled={!s.enabled}
            checked={s.features.translation}
            onChange={(e) => setS({ ...s, features: { ...s.features, translation: e.currentTarget.checked } })}
          />
        </Stack>
      </Paper>
      <Paper withBorder p="lg" component="section" aria-labelledby="ai-modes">
        <Title order={2} fz="lg" id="ai-modes">
          Automation
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          What AI does by itself a few seconds after a note’s text is written or changed, in this order. On: it does it.
          Suggest: it offers it on the note, and a person accepts or rejects it. Off: nothing. Everything it does is
          shown on the note with the model that did it, and can be undone.
        </Text>
        <Stack gap="sm">
          {STEPS.map((step) => (
            <Group key={step.key} gap="md" align="flex-start" wrap="nowrap">
              <Select
                label={step.label}
                w={130}
                style={{ flex: 'none' }}
                data={['On', 'Suggest', 'Off']}
                value={s.modes[step.key]}
                allowDeselect={false}
                aria-describedby={`ai-mode-${step.key}`}
                onChange={(v) => v && setS({ ...s, modes: { ...s.modes, [step.key]: v as 'On' | 'Suggest' | 'Off' } })}
              />
              <Text size="sm" id={`ai-mode-${step.key}`} pt={24}>
                {step.does}{' '}
                <Text span size="sm" c="dimmed">
                  {step.local}
                </Text>
              </Text>
            </Group>
          ))}
        </Stack>
      </Paper>
      <Paper withBorder p="lg" component="section" aria-labelledby="ai-cap">
        <Title order={2} fz="lg" id="ai-cap">
          Monthly cap
        </Title>
        <Text size="sm" mt="xs">
          This month: {number.format(used)} tokens in {number.format(s.usage.calls)} calls
          {s.monthlyTokenCap !== null ? ` of ${number.format(s.monthlyTokenCap)}` : ''}.
        </Text>
        <NumberInput
          mt="sm"
          maw={260}
          label="Tokens per month"
          description="Empty for no cap; at most 1,000,000,000."
          min={0}
          max={1_000_000_000}
          thousandSeparator=","
          allowDecimal={false}
          value={s.monthlyTokenCap ?? ''}
          onChange={(v) => setS({ ...s, monthlyTokenCap: v === '' ? null : Number(v) })}
        />
      </Paper>
      {message && <Alert color={message.ok ? 'green' : 'red'}>{message.text}</Alert>}
      <Group>
        <Button onClick={() => void save()} loading={saving}>
          Save
        </Button>
      </Group>
      {host.workspace && <Slot name="settings.ai.panel/v1" props={{ workspace: host.workspace }} />}
    </Stack>
  );
}
