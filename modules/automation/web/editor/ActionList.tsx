import {
  ActionIcon,
  Button,
  Group,
  Menu,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { ActionTypeInfo, Choices } from '../api.ts';
import { actionKey, moved, type Draft } from './draft.ts';

type Item = Draft['actions'][number];

const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const csv = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The ordered actions: dragged into order, or moved with the up and down buttons from the
 * keyboard; each with the parameters its type takes. Text may use `{{project.title}}` placeholders.
 */
export function ActionList({
  actions,
  types,
  choices,
  onChange,
}: {
  actions: Item[];
  types: ActionTypeInfo[];
  choices: Partial<Choices>;
  onChange(a: Item[]): void;
}) {
  const [dragging, setDragging] = useState<number | null>(null);
  const set = (i: number, item: Item) => onChange(actions.map((x, j) => (j === i ? item : x)));
  const add = (t: ActionTypeInfo) =>
    onChange([
      ...actions,
      {
        key: actionKey(),
        actionType: t.actionType,
        pluginId: t.pluginId,
        parameters: {},
        executionOrder: actions.length + 1,
      },
    ]);
  return (
    <Stack gap="xs">
      <ol
        style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 }}
        aria-label="Actions, in the order they run"
      >
        {actions.map((a, i) => {
          const type = types.find(
            (t) => t.actionType === a.actionType && (a.pluginId ? t.pluginId === a.pluginId : true),
          );
          return (
            <li
              key={a.key}
              draggable
              onDragStart={() => setDragging(i)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={() => {
                if (dragging !== null) onChange(moved(actions, dragging, i));
                setDragging(null);
              }}
              data-testid="action-item"
            >
              <Paper withBorder p="sm" radius="sm">
                <Group justify="space-between" mb="xs" wrap="nowrap">
                  <Group gap="xs" wrap="nowrap">
                    <IconGripVertical size={16} aria-hidden style={{ cursor: 'grab' }} />
                    <Text fw={600} size="sm">
                      {i + 1}. {type?.title ?? a.actionType}
                    </Text>
                  </Group>
                  <Group gap={4}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move action ${i + 1} up`}
                      disabled={i === 0}
                      onClick={() => onChange(moved(actions, i, i - 1))}
                    >
                      <IconArrowUp size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move action ${i + 1} down`}
                      disabled={i === actions.length - 1}
                      onClick={() => onChange(moved(actions, i, i + 1))}
                    >
                      <IconArrowDown size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove action ${i + 1}`}
                      onClick={() => onChange(actions.filter((_, j) => j !== i))}
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Group>
                </Group>
                <Parameters item={a} choices={choices} onChange={(parameters) => set(i, { ...a, parameters })} />
              </Paper>
            </li>
          );
        })}
      </ol>
      <Menu position="bottom-start">
        <Menu.Target>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} w="fit-content">
            Add an action
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {types.map((t) => (
            <Menu.Item
              key={`${t.pluginId ?? ''}:${t.actionType}`}
              disabled={Boolean(t.unavailable)}
              onClick={() => add(t)}
            >
              <Text size="sm">{t.title}</Text>
              <Text size="xs" c="dimmed">
                {t.unavailable ?? t.description}
              </Text>
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Stack>
  );
}

function Parameters({
  item,
  choices,
  onChange,
}: {
  item: Item;
  choices: Partial<Choices>;
  onChange(p: Record<string, unknown>): void;
}) {
  const p = item.parameters;
  const put = (key: string, value: unknown) => onChange({ ...p, [key]: value });
  const projects = (choices.projects ?? []).map((x) => ({ value: x.id, label: x.title }));
  switch (item.actionType) {
    case 'createNote':
      return (
        <Stack gap="xs">
          <Select
            label="Project"
            size="xs"
            data={projects}
            value={text(p.projectId) || null}
            onChange={(v) => put('projectId', v)}
            searchable
          />
          <TextInput
            label="Title"
            size="xs"
            value={text(p.title)}
            onChange={(e) => put('title', e.currentTarget.value)}
            description="Placeholders such as {{note.title}} are filled from the event."
          />
          <Textarea
            label="Text"
            size="xs"
            value={text(p.text)}
            onChange={(e) => put('text', e.currentTarget.value)}
            autosize
            minRows={2}
          />
        </Stack>
      );
    case 'addTag':
      return (
        <MultiSelect
          label="Tags"
          size="xs"
          searchable
          data={(choices.allTagBoards ?? []).map((b) => ({
            group: b.title,
            items: b.tags.map((t) => ({ value: t.id, label: t.title })),
          }))}
          value={list(p.tagIds)}
          onChange={(v) => put('tagIds', v)}
        />
      );
    case 'notifyPeople':
      return (
        <Stack gap="xs">
          <MultiSelect
            label="People"
            size="xs"
            searchable
            data={(choices.members?.nodes ?? []).map((m) => ({ value: m.user.id, label: m.user.name || m.user.email }))}
            value={list(p.userIds)}
            onChange={(v) => put('userIds', v)}
          />
          <Textarea
            label="Message"
            size="xs"
            value={text(p.message)}
            onChange={(e) => put('message', e.currentTarget.value)}
            autosize
            minRows={2}
          />
        </Stack>
      );
    case 'sendEmail':
      return (
        <Stack gap="xs">
          <TextInput
            label="To (comma-separated)"
            size="xs"
            value={list(p.to).join(', ')}
            onChange={(e) => put('to', csv(e.currentTarget.value))}
          />
          <TextInput
            label="Subject"
            size="xs"
            value={text(p.subject)}
            onChange={(e) => put('subject', e.currentTarget.value)}
          />
          <Textarea
            label="Message"
            size="xs"
            value={text(p.text)}
            onChange={(e) => put('text', e.currentTarget.value)}
            autosize
            minRows={2}
          />
        </Stack>
      );
    case 'invokeAgent':
      return (
        <Stack gap="xs">
          {choices.agents ? (
            <Select
              label="Agent"
              size="xs"
              data={choices.agents.map((a) => ({ value: a.id, label: a.name }))}
              value={text(p.agentId) || null}
              searchable
              onChange={(v) => put('agentId', v ?? '')}
            />
          ) : (
            <TextInput
              label="Agent"
              size="xs"
              value={text(p.agentId)}
              onChange={(e) => put('agentId', e.currentTarget.value)}
            />
          )}
          <Textarea
            label="Prompt"
            size="xs"
            value={text(p.prompt)}
            onChange={(e) => put('prompt', e.currentTarget.value)}
            autosize
            minRows={2}
          />
        </Stack>
      );
    case 'sendToSlack':
      return (
        <Stack gap="xs">
          <TextInput
            label="Slack channel ids (comma-separated)"
            size="xs"
            value={list(p.channelIds).join(', ')}
            onChange={(e) => put('channelIds', csv(e.currentTarget.value))}
          />
          <Textarea
            label="Message"
            size="xs"
            value={text(p.text)}
            onChange={(e) => put('text', e.currentTarget.value)}
            autosize
            minRows={2}
          />
        </Stack>
      );
    default:
      return <JsonParameters value={p} onChange={onChange} />;
  }
}

/** Any other plugin action: its parameters as JSON, checked by the plugin when saved. */
function JsonParameters({
  value,
  onChange,
}: {
  value: Record<string, unknown>;
  onChange(p: Record<string, unknown>): void;
}) {
  const [raw, setRaw] = useState(JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <Textarea
      label="Parameters (JSON)"
      size="xs"
      autosize
      minRows={3}
      value={raw}
      error={bad ? 'This is not a JSON object.' : undefined}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setRaw(next);
        try {
          const parsed = JSON.parse(next) as unknown;
          const ok = Boolean(parsed) && typeof parsed === 'object' && !Array.isArray(parsed);
          setBad(!ok);
          if (ok) onChange(parsed as Record<string, unknown>);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}
