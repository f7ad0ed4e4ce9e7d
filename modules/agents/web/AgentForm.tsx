import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { errorText, Q, toolLabel, type Agent, type AgentToolInfo } from './api.ts';

const NAME_MAX = 255;

/** Create or edit an agent: name, instructions, model and the tools it may use (askForConfirmation always). */
export function AgentForm({
  agent,
  onSaved,
  onCancel,
}: {
  agent: Agent | null;
  onSaved(agent: Agent): void;
  onCancel?(): void;
}) {
  const host = useFieldbook();
  const [tools, setTools] = useState<AgentToolInfo[] | null>(null);
  const [name, setName] = useState(agent?.name ?? '');
  const [instructions, setInstructions] = useState(agent?.instructions ?? '');
  const [model, setModel] = useState(agent?.model ?? '');
  const [chosen, setChosen] = useState<string[]>(
    agent?.tools ?? ['list_projects', 'list_project_notes', 'get_note', 'search', 'keyword_search'],
  );
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    host
      .graphql<{ agentTools: AgentToolInfo[] }>(Q.tools)
      .then((r) => setTools(r.agentTools.filter((t) => t.name !== 'askForConfirmation')))
      .catch((err: unknown) => setError(errorText(err)));
  }, [host]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const input = { name, instructions, model: model.trim() || null, tools: chosen };
      const saved = agent
        ? (await host.graphql<{ updateAgent: Agent }>(Q.update, { id: agent.id, input })).updateAgent
        : (await host.graphql<{ createAgent: Agent }>(Q.create, { input })).createAgent;
      onSaved(saved);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  const group = (access: 'read' | 'write', title: string, hint: string) => (
    <Stack gap="xs">
      <div>
        <Title order={3} fz="sm">
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {(tools ?? [])
          .filter((t) => t.access === access)
          .map((t) => (
            <Checkbox
              key={t.name}
              value={t.name}
              label={
                <Group gap={6} wrap="nowrap">
                  <span>{toolLabel(t.name)}</span>
                  {t.needsConfirmation && (
                    <Badge size="xs" variant="light" color="orange">
                      asks first
                    </Badge>
                  )}
                </Group>
              }
              description={t.description}
              checked={chosen.includes(t.name)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setChosen((list) => (on ? [...list, t.name] : list.filter((n) => n !== t.name)));
              }}
            />
          ))}
      </SimpleGrid>
    </Stack>
  );

  return (
    <form onSubmit={submit} aria-label={agent ? 'Edit agent' : 'New agent'}>
      <Stack gap="md">
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          value={name}
          maxLength={NAME_MAX}
          onChange={(e) => setName(e.currentTarget.value)}
          description={`Up to ${NAME_MAX} characters.`}
        />
        <Textarea
          label="Instructions"
          description="What the agent is for and how it should answer. It always acts as the person using it and sees only what they can read."
          autosize
          minRows={3}
          maxRows={10}
          value={instructions}
          onChange={(e) => setInstructions(e.currentTarget.value)}
        />
        <TextInput
          label="Model"
          description="Leave empty to use the workspace's chat model."
          value={model}
          onChange={(e) => setModel(e.currentTarget.value)}
        />
        {tools === null && !error ? <Loader size="sm" aria-label="Loading tools" /> : null}
        {tools && (
          <Stack gap="lg" role="group" aria-label="Tools">
            {group('read', 'Tools that read', 'Find and read research, channels and summaries.')}
            {group('write', 'Tools that act', 'Write notes, send email or Slack messages. Viewers cannot use them.')}
          </Stack>
        )}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={saving}>
            {agent ? 'Save agent' : 'Create agent'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
