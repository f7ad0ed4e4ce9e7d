import { Alert, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconCheck, IconSparkles, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

export const VIEWERS_CANNOT_SUGGEST = 'Viewers cannot suggest or accept highlights';

interface Suggestion {
  id: string;
  text: string;
  reason: string | null;
  label: string;
}

const FIELDS = 'id text reason label';

/**
 * Suggested highlights of a note, in its Highlights tab: "Suggest highlights" asks for passages
 * (AI, or the note's key sentences with no model), each shown with why it was picked and what
 * picked it; Accept makes it a highlight, Reject keeps it from being suggested again.
 */
export function SuggestedHighlights({
  noteId,
  canEdit,
  beforeSuggest,
  onAccepted,
}: {
  noteId: string;
  canEdit: boolean;
  beforeSuggest?: () => Promise<void>;
  onAccepted: () => void;
}) {
  const host = useFieldbook();
  const pending = useGraphQL<{ highlightSuggestions: Suggestion[] }>(
    `query($n: ID!) { highlightSuggestions(noteId: $n) { ${FIELDS} } }`,
    { n: noteId },
  );
  const [list, setList] = useState<Suggestion[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  useEffect(() => {
    if (pending.data) setList(pending.data.highlightSuggestions);
  }, [pending.data]);

  const run = async (key: string, fn: () => Promise<void>) => {
    setBusy(key);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };
  const suggest = () =>
    run('suggest', async () => {
      await beforeSuggest?.();
      const r = (
        await host.graphql<{ suggestHighlights: { suggestions: Suggestion[]; dropped: number; local: boolean } }>(
          `mutation($n: ID!) { suggestHighlights(noteId: $n) { dropped local suggestions { ${FIELDS} } } }`,
          { n: noteId },
        )
      ).suggestHighlights;
      setList(r.suggestions);
      const n = r.suggestions.length;
      setOutcome(
        [
          n
            ? `${n} passage${n === 1 ? '' : 's'} suggested.`
            : 'Nothing new to suggest: the passages worth highlighting are highlighted or were rejected.',
          r.local ? 'No AI model is configured, so these are the note’s key sentences.' : null,
          r.dropped
            ? `${r.dropped} passage${r.dropped === 1 ? '' : 's'} the model gave ${r.dropped === 1 ? 'was' : 'were'} not in the note word for word and ${r.dropped === 1 ? 'was' : 'were'} removed.`
            : null,
        ]
          .filter(Boolean)
          .join(' '),
      );
    });
  const decide = (s: Suggestion, accept: boolean) =>
    run(s.id, async () => {
      await host.graphql(
        `mutation($id: ID!) { ${accept ? 'acceptHighlightSuggestion' : 'rejectHighlightSuggestion'}(id: $id) { id } }`,
        { id: s.id },
      );
      setList((l) => (l ?? []).filter((x) => x.id !== s.id));
      if (accept) onAccepted();
    });

  const button = (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconSparkles size={14} aria-hidden />}
      onClick={() => void suggest()}
      loading={busy === 'suggest'}
      disabled={!canEdit}
    >
      Suggest highlights
    </Button>
  );
  return (
    <Stack gap="xs" data-testid="suggested-highlights">
      <Group justify="space-between" gap="xs">
        <Title order={3} fz="sm">
          Suggested highlights
        </Title>
        {canEdit ? (
          button
        ) : (
          <Tooltip label={VIEWERS_CANNOT_SUGGEST}>
            <span tabIndex={0} aria-label={VIEWERS_CANNOT_SUGGEST}>
              {button}
            </span>
          </Tooltip>
        )}
      </Group>
      {error && (
        <Alert color="red" title="No suggestions">
          {error}
        </Alert>
      )}
      <div aria-live="polite">
        {outcome && (
          <Text size="xs" c="dimmed">
            {outcome}
          </Text>
        )}
      </div>
      {(list ?? []).length > 0 && (
        <Stack
          gap={6}
          component="ul"
          aria-label="Suggested highlights"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {(list ?? []).map((s) => (
            <Paper component="li" key={s.id} withBorder radius="md" p="xs" style={{ borderStyle: 'dashed' }}>
              <Text size="sm">“{s.text}”</Text>
              {s.reason && (
                <Text size="xs" mt={2}>
                  {s.reason}
                </Text>
              )}
              <Group justify="space-between" mt={6} gap={4} wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {s.label}
                </Text>
                {canEdit && (
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-xs"
                      variant="light"
                      color="teal"
                      leftSection={<IconCheck size={12} aria-hidden />}
                      loading={busy === s.id}
                      onClick={() => void decide(s, true)}
                      aria-label={`Accept: ${s.text.slice(0, 60)}`}
                    >
                      Accept
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="gray"
                      leftSection={<IconX size={12} aria-hidden />}
                      disabled={busy === s.id}
                      onClick={() => void decide(s, false)}
                      aria-label={`Reject: ${s.text.slice(0, 60)}`}
                    >
                      Reject
                    </Button>
                  </Group>
                )}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
