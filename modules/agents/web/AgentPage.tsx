import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconMessagePlus, IconPencil } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AgentForm } from './AgentForm.tsx';
import { errorText, Q, toolLabel, type Agent, type Conversation } from './api.ts';

const STATUS: Record<Conversation['status'], { label: string; color: string } | null> = {
  IDLE: null,
  RUNNING: { label: 'Answering', color: 'blue' },
  AWAITING_CONFIRMATION: { label: 'Waiting for you', color: 'orange' },
};

/** An agent: what it is for, its tools, the person's conversations with it, and a new one. */
export function AgentPage() {
  const { agentId = '' } = useParams();
  const host = useFieldbook();
  const navigate = useNavigate();
  const [agent, setAgent] = useState<Agent | null>(null);
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);

  const load = useCallback(async () => {
    try {
      const r = await host.graphql<{ agent: Agent; agentConversations: Conversation[] }>(Q.agent, { id: agentId });
      setAgent(r.agent);
      setConversations(r.agentConversations);
      document.title = `${r.agent.name} · Agents · Fieldbook`;
    } catch (err) {
      setError(errorText(err));
    }
  }, [host, agentId]);
  useEffect(() => void load(), [load]);

  const start = async () => {
    try {
      const c = (await host.graphql<{ startConversation: Conversation }>(Q.start, { input: { agentId } }))
        .startConversation;
      navigate(`/agents/${agentId}/conversations/${c.id}`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (error) {
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  }
  if (!agent) return <Loader aria-label="Loading the agent" />;
  return (
    <Box maw={1084} mx="auto" w="100%">
      <Anchor component={Link} to="/agents" size="sm">
        ← Agents
      </Anchor>
      <Group justify="space-between" align="flex-end" mt="xs" mb="md">
        <Stack gap={4}>
          <Title order={1} fz={26}>
            {agent.name || 'Untitled agent'}
          </Title>
          <Text size="sm" c="dimmed">
            {agent.model ? `Model ${agent.model}` : "The workspace's chat model"}
          </Text>
        </Stack>
        <Group>
          {agent.viewerCanEdit && (
            <Button
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => setEditing(true)}
            >
              Edit agent
            </Button>
          )}
          <Button leftSection={<IconMessagePlus size={16} aria-hidden />} onClick={start}>
            New conversation
          </Button>
        </Group>
      </Group>
      <Paper withBorder p="md" radius="md" mb="lg">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {agent.instructions || 'No instructions.'}
        </Text>
        <Group gap={4} mt="sm" aria-label="Tools">
          {agent.tools.map((t) => (
            <Badge key={t} size="sm" variant="light">
              {toolLabel(t)}
            </Badge>
          ))}
        </Group>
      </Paper>
      <Title order={2} fz="lg" mb="xs">
        Your conversations with {agent.name}
      </Title>
      {conversations.length === 0 ? (
        <Text c="dimmed">None yet. Start one to ask the agent something.</Text>
      ) : (
        <Table verticalSpacing="xs" aria-label="Conversations">
          <Table.Tbody>
            {conversations.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/agents/${agentId}/conversations/${c.id}`}>
                    {c.title}
                  </Anchor>
                  {STATUS[c.status] && (
                    <Badge ml="xs" size="sm" color={STATUS[c.status]!.color} variant="light">
                      {STATUS[c.status]!.label}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">{new Date(c.updatedAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={editing} onClose={() => setEditing(false)} title="Edit agent" size="xl">
        <AgentForm
          agent={agent}
          onCancel={() => setEditing(false)}
          onSaved={(a) => {
            setAgent(a);
            setEditing(false);
          }}
        />
      </Modal>
    </Box>
  );
}
