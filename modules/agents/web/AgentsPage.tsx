import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Anchor, Badge, Button, Group, Modal, Paper, SimpleGrid, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconRobot, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AgentForm } from './AgentForm.tsx';
import { FilterBuilder } from './FilterBuilder.tsx';
import { isEmptyQuery, readQuery, toInput, writeQuery, type ConversationQuery } from './conversationFilters.ts';
import { ListPage } from './ListPage.tsx';
import { errorText, Q, toolLabel, type Agent, type Conversation } from './api.ts';

/** /agents: the workspace's agents, a new one, and the person's conversations found by text. */
export function AgentsPage() {
  const host = useFieldbook();
  const navigate = useNavigate();
  const [agents, setAgents] = useState<Agent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  // The search lives in the address, so it survives a reload and can be shared.
  const [params, setParams] = useSearchParams();
  const current = readQuery(params);
  const [query, setQuery] = useState(current.query);
  const [found, setFound] = useState<Conversation[] | null>(null);

  const load = useCallback(async () => {
    try {
      setAgents((await host.graphql<{ agents: Agent[] }>(Q.agents)).agents);
    } catch (err) {
      setError(errorText(err));
    }
  }, [host]);
  useEffect(() => {
    document.title = 'Agents · Fieldbook';
    void load();
  }, [load]);

  const key = params.toString();
  useEffect(() => {
    const q = readQuery(new URLSearchParams(key));
    if (isEmptyQuery(q)) {
      setFound(null);
      return;
    }
    let live = true;
    host
      .graphql<{ searchConversations: Conversation[] }>(Q.search, { input: toInput(q) })
      .then((r) => live && setFound(r.searchConversations))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [key, host]);

  const apply = (q: ConversationQuery) => setParams(writeQuery(q));
  const search = (e: FormEvent) => {
    e.preventDefault();
    apply({ ...current, query: query.trim() });
  };

  return (
    <ListPage
      title="Agents"
      intro="AI agents that search and read your research with you, and act only when you confirm."
      action={
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          New agent
        </Button>
      }
      error={error}
      loading={agents === null}
      loadingLabel="Loading agents"
      empty={
        agents?.length === 0
          ? {
              icon: <IconRobot size={28} aria-hidden />,
              title: 'No agents yet',
              text: 'Make one to answer questions from your interviews, summarize a project or draft notes.',
            }
          : null
      }
    >
      {agents && agents.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mb="xl">
          {agents.map((a) => (
            <Paper key={a.id} withBorder p="md" radius="md">
              <Anchor component={Link} to={`/agents/${a.id}`} fw={600}>
                {a.name || 'Untitled agent'}
              </Anchor>
              <Text size="sm" c="dimmed" lineClamp={2} mt={4}>
                {a.instructions || 'No instructions.'}
              </Text>
              <Group gap={4} mt="sm">
                {a.tools.slice(0, 4).map((t) => (
                  <Badge key={t} size="xs" variant="light">
                    {toolLabel(t)}
                  </Badge>
                ))}
                {a.tools.length > 4 && (
                  <Badge size="xs" variant="outline">
                    +{a.tools.length - 4}
                  </Badge>
                )}
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      )}

      <Title order={2} fz="lg" mb="xs">
        Your conversations
      </Title>
      <form onSubmit={search} role="search" aria-label="Search conversations">
        <Group align="flex-end" mb="sm">
          <TextInput
            label="Search conversations"
            placeholder="Words in a title or message"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="light" leftSection={<IconSearch size={16} aria-hidden />}>
            Search
          </Button>
        </Group>
      </form>
      <FilterBuilder value={current} onChange={(q) => apply({ ...q, query: query.trim() })} />
      {found && found.length === 0 && <Text c="dimmed">No conversations match.</Text>}
      {found && found.length > 0 && (
        <Table verticalSpacing="xs" aria-label="Conversations found">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Conversation</Table.Th>
              <Table.Th>Agent</Table.Th>
              <Table.Th>Updated</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {found.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/agents/${c.agentId}/conversations/${c.id}`}>
                    {c.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>{c.agent?.name ?? 'Deleted agent'}</Table.Td>
                <Table.Td>{new Date(c.updatedAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Modal opened={creating} onClose={() => setCreating(false)} title="New agent" size="xl">
        <AgentForm agent={null} onCancel={() => setCreating(false)} onSaved={(a) => navigate(`/agents/${a.id}`)} />
      </Modal>
    </ListPage>
  );
}
