import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconSend, IconThumbDown, IconThumbUp } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText, Q, toolLabel, type AgentItem, type AgentMessage, type Conversation, type Pending } from './api.ts';
import { PendingAction } from './PendingAction.tsx';
import { postEvents } from '@fieldbook/ai/web/events';

/** Links a RESULT's items open: Fieldbook paths in the app, outside URLs in a new tab. */
function ItemLinks({ items }: { items: AgentItem[] }) {
  if (items.length === 0) return null;
  return (
    <Stack gap={2} mt={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.slice(0, 12).map((i) => (
        <li key={`${i.type}:${i.id}`}>
          <Badge size="xs" variant="outline" mr={6}>
            {i.type.toLowerCase().replace(/_/g, ' ')}
          </Badge>
          {i.url?.startsWith('/') ? (
            <Anchor component={Link} to={i.url} size="sm">
              {i.title || 'Untitled'}
            </Anchor>
          ) : i.url ? (
            <Anchor href={i.url} target="_blank" rel="noreferrer" size="sm">
              {i.title || i.url}
            </Anchor>
          ) : (
            <Text span size="sm">
              {i.title || 'Untitled'}
            </Text>
          )}
        </li>
      ))}
      {items.length > 12 && (
        <Text size="xs" c="dimmed" component="li">
          and {items.length - 12} more
        </Text>
      )}
    </Stack>
  );
}

/** THINKING and RESULT steps, collapsed: the agent's work is there to check, not to read first. */
function Step({ m }: { m: AgentMessage }) {
  const [open, setOpen] = useState(false);
  const label =
    m.type === 'THINKING'
      ? m.toolCalls.length
        ? `Thinking · calls ${m.toolCalls.map((c) => toolLabel(c.name)).join(', ')}`
        : 'Thinking'
      : `${toolLabel(m.toolName ?? 'tool')}${m.error ? ' · failed' : ''}${m.items.length ? ` · ${m.items.length} item${m.items.length === 1 ? '' : 's'}` : ''}`;
  if (m.type === 'THINKING' && !m.content && m.toolCalls.length === 0) return null;
  return (
    <Paper
      withBorder
      radius="sm"
      px="sm"
      py={6}
      bg="var(--mantine-color-body)"
      data-testid={`message-${m.type.toLowerCase()}`}
    >
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} w="100%">
        <Group gap={6} wrap="nowrap">
          {open ? <IconChevronDown size={14} aria-hidden /> : <IconChevronRight size={14} aria-hidden />}
          <Text size="sm" c={m.error ? 'var(--mantine-color-error)' : undefined} fw={500}>
            {label}
          </Text>
        </Group>
      </UnstyledButton>
      {m.type === 'RESULT' && !open && <ItemLinks items={m.items} />}
      {open && (
        <div>
          <Text size="sm" mt={6} style={{ whiteSpace: 'pre-wrap' }}>
            {m.content || 'No text.'}
          </Text>
          {m.type === 'RESULT' && <ItemLinks items={m.items} />}
        </div>
      )}
    </Paper>
  );
}

function Answer({ m, onRate }: { m: AgentMessage; onRate(rating: 'Good' | 'Bad' | null): void }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="message-assistant">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {m.content}
      </Text>
      <Group gap={4} mt={6} justify="flex-end">
        {m.droppedQuotes > 0 && (
          <Text size="xs" c="dimmed" mr="auto" data-testid="answer-dropped-quotes">
            {m.droppedQuotes} quote{m.droppedQuotes === 1 ? '' : 's'} not found in what the agent read removed
          </Text>
        )}
        <ActionIcon
          variant={m.rating === 'Good' ? 'filled' : 'subtle'}
          color="teal"
          aria-label="Good answer"
          aria-pressed={m.rating === 'Good'}
          onClick={() => onRate(m.rating === 'Good' ? null : 'Good')}
        >
          <IconThumbUp size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon
          variant={m.rating === 'Bad' ? 'filled' : 'subtle'}
          color="red"
          aria-label="Bad answer"
          aria-pressed={m.rating === 'Bad'}
          onClick={() => onRate(m.rating === 'Bad' ? null : 'Bad')}
        >
          <IconThumbDown size={16} aria-hidden />
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/** A conversation with an agent: messages streamed in, steps collapsed, confirmations asked, answers rated. */
export function ConversationPage() {
  const { agentId = '', conversationId = '' } = useParams();
  const host = useFieldbook();
  const navigate = useNavigate();
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [messages, setMessages] = useState<AgentMessage[]>([]);
  const [streaming, setStreaming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const end = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    try {
      const c = (await host.graphql<{ agentConversation: Conversation }>(Q.conversation, { id: conversationId }))
        .agentConversation;
      setConversation(c);
      setMessages(c.messages ?? []);
      document.title = `${c.title} · Agents · Fieldbook`;
    } catch (err) {
      setError(errorText(err));
    }
  }, [host, conversationId]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages, streaming]);

  const run = async (path: string, body: unknown) => {
    setBusy(true);
    setError(null);
    setStreaming('');
    try {
      await postEvents(host, path, body, (event, data) => {
        if (event === 'delta') setStreaming((s) => (s ?? '') + (data as { text: string }).text);
        if (event === 'message') {
          setStreaming('');
          setMessages((list) => [...list, data as AgentMessage]);
        }
        if (event === 'confirm')
          setConversation((c) => (c ? { ...c, status: 'AWAITING_CONFIRMATION', pending: data as Pending } : c));
        if (event === 'done') setConversation((c) => (c ? { ...c, ...(data as Conversation) } : c));
        if (event === 'error') setError((data as { message: string }).message);
      });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setStreaming(null);
      setBusy(false);
    }
  };

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    const message = text;
    setText('');
    await run(`/api/agents/conversations/${conversationId}/messages`, { text: message });
  };
  const answer = (confirmed: boolean) => {
    setConversation((c) => (c ? { ...c, pending: null, status: 'RUNNING' } : c));
    void run(`/api/agents/conversations/${conversationId}/confirm`, { confirmed });
  };
  const rate = async (m: AgentMessage, rating: 'Good' | 'Bad' | null) => {
    try {
      const next = (await host.graphql<{ rateMessage: AgentMessage }>(Q.rate, { id: m.id, rating })).rateMessage;
      setMessages((list) => list.map((x) => (x.id === m.id ? next : x)));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const rename = async () => {
    const title = window.prompt('Conversation title (up to 500 characters)', conversation?.title ?? '');
    if (title === null || !title.trim()) return;
    try {
      const next = (
        await host.graphql<{ renameConversation: Conversation }>(
          'mutation($id: ID!, $title: String!) { renameConversation(id: $id, title: $title) { id title } }',
          { id: conversationId, title },
        )
      ).renameConversation;
      setConversation((c) => (c ? { ...c, title: next.title } : c));
      document.title = `${next.title} · Agents · Fieldbook`;
    } catch (err) {
      setError(errorText(err));
    }
  };
  const remove = async () => {
    if (!window.confirm('Delete this conversation and its messages? This cannot be undone.')) return;
    try {
      await host.graphql('mutation($id: ID!) { deleteConversation(id: $id) }', { id: conversationId });
      navigate(`/agents/${agentId}`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (!conversation)
    return error ? (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    ) : (
      <Loader aria-label="Loading the conversation" />
    );
  const pending = conversation.pending;
  return (
    <Box maw={860} mx="auto" w="100%">
      <Anchor component={Link} to={`/agents/${agentId}`} size="sm">
        ← {conversation.agent?.name ?? 'Agent'}
      </Anchor>
      <Group justify="space-between" align="flex-start" mt="xs" mb="md" wrap="nowrap">
        <Title order={1} fz={24}>
          {conversation.title}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => void rename()}>
            Rename
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={() => void remove()}>
            Delete
          </Button>
        </Group>
      </Group>
      <Stack gap="sm" aria-live="polite" aria-label="Messages" role="log">
        {messages.length === 0 && (
          <Text c="dimmed">
            Ask the agent something to begin. It uses its tools as you, and sees only what you can read.
          </Text>
        )}
        {messages.map((m) =>
          m.type === 'USER' ? (
            <Paper
              key={m.id}
              radius="md"
              p="sm"
              ml="auto"
              maw="80%"
              bg="var(--mantine-color-blue-light)"
              data-testid="message-user"
            >
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {m.content}
              </Text>
            </Paper>
          ) : m.type === 'ASSISTANT' ? (
            <Answer key={m.id} m={m} onRate={(r) => void rate(m, r)} />
          ) : (
            <Step key={m.id} m={m} />
          ),
        )}
        {streaming !== null && (
          <Paper withBorder radius="md" p="sm" aria-busy="true">
            {streaming ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {streaming}
              </Text>
            ) : (
              <Group gap="xs">
                <Loader size="xs" aria-hidden />
                <Text size="sm" c="dimmed">
                  The agent is working…
                </Text>
              </Group>
            )}
          </Paper>
        )}
        {pending && (
          <Alert color="orange" title="The agent asks you" role="alertdialog" aria-label="The agent asks you">
            <Text size="sm" mb="xs">
              {pending.question}
            </Text>
            {pending.toolName !== 'askForConfirmation' && <PendingAction pending={pending} />}
            <Group gap="xs">
              <Button size="xs" onClick={() => answer(true)} disabled={busy}>
                Confirm
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => answer(false)}
                disabled={busy}
                aria-describedby="cancel-hint"
              >
                Cancel
              </Button>
              <Text id="cancel-hint" size="xs" c="dimmed">
                Cancel stops the agent here: nothing else it planned in this step is done.
              </Text>
            </Group>
          </Alert>
        )}
        <div ref={end} />
      </Stack>
      {error && (
        <Alert color="red" role="alert" mt="md">
          {error}
        </Alert>
      )}
      <form onSubmit={send} aria-label="Message the agent">
        <Group align="flex-end" mt="md" wrap="nowrap">
          <Textarea
            label="Message"
            placeholder={pending ? 'Answer the question above first' : 'Ask the agent…'}
            autosize
            minRows={1}
            maxRows={6}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
            disabled={busy || Boolean(pending)}
            style={{ flex: 1 }}
          />
          <Button
            type="submit"
            leftSection={<IconSend size={16} aria-hidden />}
            disabled={busy || Boolean(pending) || !text.trim()}
          >
            Send
          </Button>
        </Group>
      </form>
    </Box>
  );
}
