import { Alert, Button, Group, Loader, Modal, Paper, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { PROJECT_HIGHLIGHTS, type Highlight } from './api.ts';
import { errorMessage } from './errors.ts';

/** Lists the project's highlights, newest first, to cite one in an insight. */
export function CitePicker({
  opened,
  onClose,
  projectId,
  cited,
  onCite,
}: {
  opened: boolean;
  onClose: () => void;
  projectId: string;
  cited: ReadonlySet<string>;
  onCite: (h: Highlight) => Promise<void>;
}) {
  const list = useGraphQL<{ highlights: { nodes: Highlight[] } }>(PROJECT_HIGHLIGHTS, { projectId });
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const q = search.trim().toLowerCase();
  const shown = (list.data?.highlights.nodes ?? []).filter(
    (h) => !q || h.text.toLowerCase().includes(q) || (h.note?.title ?? '').toLowerCase().includes(q),
  );

  return (
    <Modal opened={opened} onClose={onClose} title="Cite a highlight" size="lg">
      <Stack gap="sm">
        <TextInput
          label="Search highlights"
          placeholder="Words in the highlight or its note’s title"
          leftSection={<IconSearch size={14} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        {list.loading && !list.data ? (
          <Loader size="sm" aria-label="Loading highlights" />
        ) : list.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(list.error)}
          </Alert>
        ) : !shown.length ? (
          <Text size="sm" c="dimmed" py="md">
            {q
              ? 'No highlight matches that search.'
              : 'This project has no highlights yet. Highlight text in a note first, then cite it here.'}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            <Stack
              gap="xs"
              component="ul"
              style={{ listStyle: 'none', margin: 0, padding: 0 }}
              aria-label="Highlights of this project"
            >
              {shown.map((h) => (
                <Paper component="li" key={h.id} withBorder p="sm" radius="md">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" lineClamp={3}>
                        “{h.text}”
                      </Text>
                      <Text size="xs" c="dimmed" mt={2}>
                        From {h.note?.title || 'Untitled note'}
                      </Text>
                    </div>
                    <Button
                      size="compact-sm"
                      variant={cited.has(h.id) ? 'default' : 'light'}
                      disabled={cited.has(h.id) || busy !== null}
                      loading={busy === h.id}
                      aria-label={
                        cited.has(h.id) ? `Already cited: ${h.text.slice(0, 40)}` : `Cite “${h.text.slice(0, 40)}”`
                      }
                      onClick={async () => {
                        setBusy(h.id);
                        try {
                          await onCite(h);
                        } finally {
                          setBusy(null);
                        }
                      }}
                    >
                      {cited.has(h.id) ? 'Cited' : 'Cite'}
                    </Button>
                  </Group>
                </Paper>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Modal>
  );
}
