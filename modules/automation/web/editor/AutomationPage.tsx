import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Alert, Anchor, Box, Button, Group, Loader, Paper, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  errorText,
  Q,
  type ActionTypeInfo,
  type Automation,
  type AutomationEvent,
  type Choices,
  type Run,
} from '../api.ts';
import { DryRunPanel } from '../history/DryRunPanel.tsx';
import { RunHistory } from '../history/RunHistory.tsx';
import { ActionList } from './ActionList.tsx';
import { draftOf, emptyDraft, inputOf, type Draft } from './draft.ts';
import { TriggerPicker } from './TriggerPicker.tsx';

/** /automation/new and /automation/:id: the editor, and for a saved automation its history and dry run. */
export function AutomationPage() {
  const host = useFieldbook();
  const navigate = useNavigate();
  const { automationId } = useParams();
  const [catalog, setCatalog] = useState<{
    automationEvents: AutomationEvent[];
    automationActions: ActionTypeInfo[];
  } | null>(null);
  const [choices, setChoices] = useState<Partial<Choices>>({});
  const [saved, setSaved] = useState<Automation | null>(null);
  const [draft, setDraft] = useState<Draft | null>(automationId ? null : emptyDraft());
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [runs, setRuns] = useState<Run[]>([]);
  const [tab, setTab] = useState<string | null>('editor');
  const [running, setRunning] = useState(false);

  useEffect(() => {
    document.title = `${automationId ? (saved?.title ?? 'Automation') : 'New automation'} · Fieldbook`;
  }, [automationId, saved]);
  useEffect(() => {
    void host.graphql<typeof catalog>(Q.catalog).then(setCatalog, (err: unknown) => setError(errorText(err)));
    // Each list on its own: a person who may not list members still picks projects and tags.
    const pick = (query: string) =>
      host.graphql<Partial<Choices>>(query).then(
        (c) => setChoices((prev) => ({ ...prev, ...c })),
        () => undefined,
      );
    void pick('{ projects { id title } }');
    void pick('{ allTagBoards { id title tags { id title } } }');
    void pick('{ members(first: 100) { nodes { user { id name email } } } }');
    // Channels and agents are modules of their own: without them these lists stay empty.
    void pick('{ channels { id name } }');
    void pick('{ agents { id name } }');
  }, [host]);
  useEffect(() => {
    if (!automationId) return;
    void host.graphql<{ automation: Automation }>(Q.one, { id: automationId }).then(
      ({ automation }) => {
        setSaved(automation);
        setDraft(draftOf(automation));
      },
      (err: unknown) => setError(errorText(err)),
    );
  }, [host, automationId]);
  const onRuns = useCallback((r: Run[]) => setRuns(r), []);

  const save = async () => {
    if (!draft) return;
    setSaving(true);
    try {
      if (saved) {
        const next = (
          await host.graphql<{ updateAutomation: Automation }>(Q.update, { id: saved.id, input: inputOf(draft) })
        ).updateAutomation;
        setSaved(next);
        setNotice('Saved.');
      } else {
        const created = (await host.graphql<{ createAutomation: Automation }>(Q.create, { input: inputOf(draft) }))
          .createAutomation;
        void navigate(`/automation/${created.id}`);
      }
      setError(null);
    } catch (err) {
      setError(errorText(err));
      setNotice(null);
    } finally {
      setSaving(false);
    }
  };

  // A manual run is queued: the history tab shows it as the worker picks it up and finishes it.
  const runNow = async () => {
    if (!saved) return;
    setRunning(true);
    try {
      await host.graphql<{ runAutomation: string }>(Q.run, { id: saved.id });
      setNotice('Run started. It is listed under Run history.');
      setError(null);
      setTab('history');
    } catch (err) {
      setError(errorText(err));
      setNotice(null);
    } finally {
      setRunning(false);
    }
  };

  const change = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const editor =
    draft && catalog ? (
      <Stack gap="md">
        <TextInput
          label="Title"
          required
          value={draft.title}
          onChange={(e) => change({ title: e.currentTarget.value })}
          description="Up to 255 characters."
        />
        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="lg" mb="sm">
            Trigger
          </Title>
          <TriggerPicker draft={draft} events={catalog.automationEvents} choices={choices} onChange={change} />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="lg" mb="sm">
            Actions
          </Title>
          <ActionList
            actions={draft.actions}
            types={catalog.automationActions}
            choices={choices}
            onChange={(actions) => change({ actions })}
          />
        </Paper>
        <Group>
          <Button onClick={() => void save()} loading={saving}>
            {saved ? 'Save changes' : 'Create automation'}
          </Button>
          {notice && (
            <Text size="sm" c="teal.8" role="status">
              {notice}
            </Text>
          )}
        </Group>
      </Stack>
    ) : (
      <Loader aria-label="Loading" />
    );

  return (
    <Box maw={1084} mx="auto" w="100%">
      <Anchor component={Link} to="/automation" size="sm">
        All automations
      </Anchor>
      <Group justify="space-between" mb="md" mt="xs">
        <Title order={1} fz={26}>
          {saved?.title ?? 'New automation'}
        </Title>
        {/* Only a manual trigger runs by hand, and only for those who may edit the automation. */}
        {saved?.trigger.eventKey === 'manual' && saved.viewerCanEdit && (
          <Button variant="light" onClick={() => void runNow()} loading={running}>
            Run now
          </Button>
        )}
      </Group>
      {notice && tab !== 'editor' && (
        <Text size="sm" c="teal.9" role="status" mb="sm">
          {notice}
        </Text>
      )}
      {saved?.disabledReason && (
        <Alert color="orange" mb="md" title="This automation was stopped">
          {saved.disabledReason} Turn it back on from the list to make it yours and run again.
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert" mb="md">
          {error}
        </Alert>
      )}
      {saved ? (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="editor">Editor</Tabs.Tab>
            <Tabs.Tab value="history">Run history</Tabs.Tab>
            <Tabs.Tab value="dry-run">Dry run</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="editor">{editor}</Tabs.Panel>
          <Tabs.Panel value="history">
            <RunHistory automationId={saved.id} onRuns={onRuns} />
          </Tabs.Panel>
          <Tabs.Panel value="dry-run">
            <DryRunLoader automationId={saved.id} runs={runs} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        editor
      )}
    </Box>
  );
}

/** The dry run needs recent events: it loads them itself when history was not opened first. */
function DryRunLoader({ automationId, runs }: { automationId: string; runs: Run[] }) {
  const host = useFieldbook();
  const [list, setList] = useState<Run[] | null>(runs.length ? runs : null);
  useEffect(() => {
    if (list) return;
    void host.graphql<{ automationRuns: Run[] }>(Q.runs, { id: automationId }).then(
      (r) => setList(r.automationRuns),
      () => setList([]),
    );
  }, [host, automationId, list]);
  return list ? <DryRunPanel automationId={automationId} runs={list} /> : <Loader aria-label="Loading" />;
}
