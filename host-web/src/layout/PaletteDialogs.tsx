import { Box, Group, Kbd, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useServices } from '../session/SessionProvider.tsx';
import { hitItem, matchActions, type PaletteItem, type SearchHitLike } from './palette-items.ts';

const SEARCH = `query PaletteSearch($input: SearchInput!) { search(input: $input) { hits { type id title parentId projectTitle } } }`;
const SEARCH_DELAY_MS = 200;

const SHORTCUTS: Array<{ keys: string[]; what: string }> = [
  { keys: ['Ctrl', 'K'], what: 'Open the command palette (⌘ K on a Mac)' },
  { keys: ['/'], what: 'Go to search and type' },
  { keys: ['?'], what: 'Show these shortcuts' },
  { keys: ['↑', '↓'], what: 'Choose in the command palette' },
  { keys: ['Enter'], what: 'Open the chosen line' },
  { keys: ['Esc'], what: 'Close the palette or this list' },
];

/**
 * The palette and the shortcuts list, loaded the first time either opens (a modal brings its
 * scroll lock and transitions along, which the shell does not need before then).
 */
export function PaletteDialogs({
  actions,
  open,
  setOpen,
  help,
  setHelp,
}: {
  actions: readonly PaletteItem[];
  open: boolean;
  setOpen(open: boolean): void;
  help: boolean;
  setHelp(help: boolean): void;
}) {
  const { client } = useServices();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<PaletteItem[]>([]);
  const [active, setActive] = useState(0);
  const listId = useId();

  // Objects come from search, a moment after typing stops; a newer query wins.
  useEffect(() => {
    const text = query.trim();
    if (!open || text.length < 2) {
      setHits([]);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      client
        .request<{ search: { hits: SearchHitLike[] } }>(SEARCH, { input: { query: text, limit: 8 } })
        .then((r) => !stale && setHits(r.search.hits.map(hitItem).filter((i): i is PaletteItem => i !== null)))
        .catch(() => !stale && setHits([]));
    }, SEARCH_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [client, query, open]);

  const items = useMemo(() => [...matchActions(actions, query), ...hits], [actions, query, hits]);
  useEffect(() => setActive(0), [query, hits]);

  const go = (item: PaletteItem | undefined) => {
    if (!item) return;
    setOpen(false);
    setQuery('');
    if (item.to === '#shortcuts') setHelp(true);
    else navigate(item.to);
  };

  return (
    <>
      <Modal opened={open} onClose={() => setOpen(false)} title="Go to or do" size="lg" yOffset="12vh">
        <Stack gap="xs">
          <TextInput
            aria-label="Find a page, action, note, insight, project, tag or person"
            placeholder="Type to find…"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            data-autofocus
            role="combobox"
            aria-expanded
            aria-controls={listId}
            aria-activedescendant={items[active] ? `${listId}-${active}` : undefined}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                setActive((a) => Math.min(items.length - 1, a + 1));
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((a) => Math.max(0, a - 1));
              } else if (e.key === 'Enter') {
                e.preventDefault();
                go(items[active]);
              }
            }}
          />
          <Stack
            gap={2}
            component="ul"
            role="listbox"
            id={listId}
            aria-label="Results"
            m={0}
            p={0}
            mah={360}
            style={{ listStyle: 'none', overflowY: 'auto' }}
          >
            {items.map((item, i) => (
              // The option itself is clicked: the keyboard stays in the box (aria-activedescendant).
              <Box
                component="li"
                key={item.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                px="sm"
                py={6}
                style={{
                  borderRadius: 6,
                  cursor: 'pointer',
                  background: i === active ? 'var(--mantine-color-indigo-0)' : undefined,
                }}
                onMouseEnter={() => setActive(i)}
                onClick={() => go(item)}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" truncate>
                    {item.label}
                  </Text>
                  <Text size="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
                    {item.hint}
                  </Text>
                </Group>
              </Box>
            ))}
          </Stack>
          {!items.length && (
            <Text size="sm" c="dimmed" px="sm">
              Nothing matches “{query.trim()}”.
            </Text>
          )}
        </Stack>
      </Modal>
      <Modal opened={help} onClose={() => setHelp(false)} title="Keyboard shortcuts">
        <Table>
          <Table.Tbody>
            {SHORTCUTS.map((s) => (
              <Table.Tr key={s.what}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' '}
                      <Kbd>{k}</Kbd>
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.what}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Modal>
    </>
  );
}
