import { Anchor, Avatar, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconFileText, IconHighlight, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { q, type Connection, type DocumentSummary, type HighlightSummary, type Person } from '../api.ts';
import { isNotFound } from '../ui/errors.ts';
import { UUID, useAction, useCan, useLoad } from '../ui/hooks.ts';
import {
  EmptyState,
  ErrorNote,
  NotFoundPanel,
  PageFrame,
  SectionLoader,
  notifyDone,
  notifyError,
} from '../ui/layout.tsx';
import { DocumentRow, HighlightRow } from '../project/DocumentList.tsx';
import { initials } from './ContactsPage.tsx';
import { PersonDialog, type PersonInput } from './PersonDialog.tsx';

/** /people/{personId} and /contacts/{personId}: a person and the notes and highlights about them. */
export function PersonPage() {
  const { personId = '' } = useParams();
  const { graphql } = useFieldbook();
  const can = useCan();
  const valid = UUID.test(personId);
  const data = useLoad<{
    person: Person;
    personNotes: Connection<DocumentSummary>;
    personHighlights: Connection<HighlightSummary>;
  }>(q.person, { id: personId }, { skip: !valid });
  const [editing, setEditing] = useState(false);
  const save = useAction((input: PersonInput) =>
    graphql(q.updatePerson, {
      id: personId,
      input: {
        name: input.name,
        email: input.email || null,
        company: input.company || null,
        title: input.title || null,
      },
    }),
  );

  const navigate = useNavigate();
  const [removing, setRemoving] = useState(false);
  // To the trash, from where a manager can restore the person with their fields and links.
  const remove = async () => {
    setRemoving(true);
    try {
      await graphql(q.deletePerson, { id: personId });
      notifyDone(`${data.data?.person.name ?? 'The person'} was moved to the trash.`);
      navigate('/contacts');
    } catch (err) {
      notifyError(err, 'The person was not moved to the trash');
      setRemoving(false);
    }
  };

  if (!valid || isNotFound(data.error))
    return <NotFoundPanel what="This person" back={{ label: 'Go to contacts', to: '/contacts' }} />;
  if (data.error && !data.data)
    return <ErrorNote error={data.error} title="The person could not be loaded" onRetry={() => void data.reload()} />;
  if (!data.data) return <SectionLoader label="Loading the person…" />;
  const { person, personNotes, personHighlights } = data.data;
  const details = [person.title, person.company].filter(Boolean).join(' at ');

  return (
    <PageFrame
      title={person.name}
      crumbs={[{ label: 'Contacts', to: '/contacts' }]}
      heading={
        <Group gap="md" wrap="nowrap">
          <Avatar size={56} radius="xl" color="indigo" src={person.avatarUrl} alt="">
            {initials(person.name)}
          </Avatar>
          <div>
            <Title order={1} fz={26} lh={1.2}>
              {person.name}
            </Title>
            {details && (
              <Text size="sm" c="dimmed">
                {details}
              </Text>
            )}
            {person.email && (
              <Anchor href={`mailto:${person.email}`} size="sm">
                {person.email}
              </Anchor>
            )}
          </div>
        </Group>
      }
      actions={
        <Group gap="xs">
          {can('people:update') && (
            <Button
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => {
                save.reset();
                setEditing(true);
              }}
            >
              Edit
            </Button>
          )}
          {can('people:manage') && (
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              loading={removing}
              onClick={() => void remove()}
            >
              Move to trash
            </Button>
          )}
        </Group>
      }
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="sm">
          <Title order={2} fz="lg">
            Notes
          </Title>
          {personNotes.nodes.length === 0 ? (
            <EmptyState icon={<IconFileText size={24} />} title="No notes about this person">
              Link a note to this person from the note’s side panel.
            </EmptyState>
          ) : (
            <Stack
              gap={6}
              component="ul"
              aria-label="Notes about this person"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {personNotes.nodes.map((n) => (
                <DocumentRow key={n.id} doc={n} kind="note" showProject />
              ))}
            </Stack>
          )}
        </Stack>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            Highlights
          </Title>
          {personHighlights.nodes.length === 0 ? (
            <EmptyState icon={<IconHighlight size={24} />} title="No highlights about this person">
              Highlights linked to this person appear here.
            </EmptyState>
          ) : (
            <Stack
              gap={6}
              component="ul"
              aria-label="Highlights about this person"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {personHighlights.nodes.map((h) => (
                <HighlightRow key={h.id} h={h} />
              ))}
            </Stack>
          )}
        </Stack>
      </SimpleGrid>
      <Paper mt="lg" p={0} bg="transparent">
        <Text size="xs" c="dimmed">
          Added {new Date(person.createdAt).toLocaleDateString()}
        </Text>
      </Paper>
      <PersonDialog
        opened={editing}
        onClose={() => setEditing(false)}
        person={person}
        busy={save.busy}
        error={save.error}
        onSubmit={async (input) => {
          if (await save.run(input)) {
            notifyDone('The person was updated.');
            setEditing(false);
            void data.reload();
          }
        }}
      />
    </PageFrame>
  );
}
