import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import type { Person } from '../api.ts';
import { errorMessage } from '../errors.ts';

const PEOPLE_OF = `query DocumentHighlightPeople($noteId: ID!) { highlights(noteId: $noteId, first: 200) { nodes { id people { id } } } }`;
const ADD = `mutation DocumentAddPersonToHighlight($highlightId: ID!, $personId: ID!) { addPersonToHighlight(highlightId: $highlightId, personId: $personId) { id } }`;
const REMOVE = `mutation DocumentRemovePersonFromHighlight($highlightId: ID!, $personId: ID!) { removePersonFromHighlight(highlightId: $highlightId, personId: $personId) { id } }`;

/**
 * Who said it: ticks the note's people a highlight is about. The choice is among the people the
 * note is linked to (Contacts tab), as in an interview everyone quoted is a participant.
 */
export function HighlightPeople({
  noteId,
  highlightId,
  label,
  people,
}: {
  noteId: string;
  highlightId: string;
  label: string;
  people: readonly Person[];
}) {
  const { graphql } = useFieldbook();
  const [linked, setLinked] = useState<Set<string> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      const r = await graphql<{ highlights: { nodes: Array<{ id: string; people: Array<{ id: string }> }> } }>(
        PEOPLE_OF,
        { noteId },
      );
      setLinked(new Set(r.highlights.nodes.find((h) => h.id === highlightId)?.people.map((p) => p.id) ?? []));
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const toggle = async (personId: string, on: boolean) => {
    // The tick shows at once and is taken back if the server refuses.
    const set = (value: boolean) =>
      setLinked((s) => {
        const next = new Set(s);
        if (value) next.add(personId);
        else next.delete(personId);
        return next;
      });
    set(on);
    setBusy(true);
    setError(null);
    try {
      await graphql(on ? ADD : REMOVE, { highlightId, personId });
    } catch (err) {
      set(!on);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popover position="bottom-end" shadow="md" trapFocus withinPortal onOpen={() => void load()}>
      <Popover.Target>
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconUser size={14} aria-hidden />}
          aria-label={`People of highlight “${label}”`}
        >
          People
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label="People this highlight is about">
        <Stack gap={6} w={240}>
          <Text size="sm" fw={600}>
            Who said it?
          </Text>
          {!people.length && (
            <Text size="sm" c="dimmed">
              Link the people of this note on its Contacts tab first.
            </Text>
          )}
          {people.map((p) => (
            <Checkbox
              key={p.id}
              label={p.name}
              checked={linked?.has(p.id) ?? false}
              disabled={!linked || busy}
              onChange={(e) => void toggle(p.id, e.currentTarget.checked)}
            />
          ))}
          {error && (
            <Text size="sm" c="red.8" role="alert">
              {error}
            </Text>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
