import { Anchor, Avatar, Button, Group, Paper, Table, Text, TextInput } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { q, type Connection, type Person } from '../api.ts';
import { useAction, useCan } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, PageFrame, SectionLoader, notifyDone } from '../ui/layout.tsx';
import { PersonDialog, type PersonInput } from './PersonDialog.tsx';

export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

const blankToNull = (input: PersonInput) => ({
  name: input.name,
  email: input.email || null,
  company: input.company || null,
  title: input.title || null,
});

/** /contacts: the people research is about, searchable by name or email. */
export function ContactsPage() {
  const { graphql } = useFieldbook();
  const can = useCan();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [people, setPeople] = useState<Person[] | null>(null);
  const [page, setPage] = useState<{ cursor: string | null; more: boolean }>({ cursor: null, more: false });
  const [error, setError] = useState<unknown>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [creating, setCreating] = useState(false);
  const create = useAction((input: PersonInput) =>
    graphql<{ createPerson: { id: string; name: string } }>(q.createPerson, { input: blankToNull(input) }),
  );

  // Answers can arrive out of order while someone types: only the latest search's is shown.
  const latest = useRef('');
  async function load(after: string | null) {
    const wanted = debounced;
    latest.current = wanted;
    try {
      const res = await graphql<{ people: Connection<Person> }>(q.people, { search: wanted || null, after });
      if (latest.current !== wanted) return;
      setPeople((prev) => (after && prev ? [...prev, ...res.people.nodes] : res.people.nodes));
      setPage({ cursor: res.people.endCursor, more: res.people.hasNextPage });
      setError(null);
    } catch (err) {
      if (latest.current === wanted) setError(err);
    }
  }
  useEffect(() => {
    void load(null);
  }, [debounced]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <PageFrame
      title="Contacts"
      description="The people your research is about: customers, participants and prospects."
      actions={
        can('people:create') && (
          <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New person
          </Button>
        )
      }
    >
      <TextInput
        aria-label="Search contacts"
        placeholder="Search by name or email"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        mb="md"
        maw={400}
      />
      {error && !people ? (
        <ErrorNote error={error} title="Contacts could not be loaded" onRetry={() => void load(null)} />
      ) : !people ? (
        <SectionLoader label="Loading contacts…" />
      ) : people.length === 0 ? (
        <EmptyState
          icon={<IconUsers size={24} />}
          title={debounced ? `No one matches “${debounced}”` : 'No contacts yet'}
        >
          {debounced
            ? 'Try part of a name or an email address.'
            : 'Add the people you interview, then link them to notes and highlights.'}
        </EmptyState>
      ) : (
        <Paper withBorder>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Company</Table.Th>
                <Table.Th>Job title</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <Avatar size={28} radius="xl" color="indigo" src={p.avatarUrl} alt="">
                        {initials(p.name)}
                      </Avatar>
                      <Anchor component={Link} to={`/people/${p.id}`} fw={500}>
                        {p.name}
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.email ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.company ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.title ?? '—'}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {page.more && (
        <Group justify="center" mt="md">
          <Button
            variant="default"
            loading={loadingMore}
            onClick={async () => {
              setLoadingMore(true);
              await load(page.cursor);
              setLoadingMore(false);
            }}
          >
            Load more contacts
          </Button>
        </Group>
      )}
      <PersonDialog
        opened={creating}
        onClose={() => {
          setCreating(false);
          create.reset();
        }}
        busy={create.busy}
        error={create.error}
        onSubmit={async (input) => {
          const res = await create.run(input);
          if (res) {
            notifyDone(`${res.createPerson.name} was added to contacts.`);
            setCreating(false);
            navigate(`/people/${res.createPerson.id}`);
          }
        }}
      />
    </PageFrame>
  );
}
