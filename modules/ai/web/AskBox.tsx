import {
  Alert,
  Anchor,
  Badge,
  Blockquote,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { IconSparkles } from '@tabler/icons-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EmergingThemesGraph } from './EmergingThemesGraph.tsx';
import { postEvents } from './events.ts';
import type { AiAnswer, AnswerBlock, Citation } from './types.ts';

const TYPE_LABEL: Record<Citation['type'], string> = {
  highlight: 'Highlight',
  insight: 'Insight',
  note: 'Note',
  theme: 'Theme',
  tag: 'Tag',
};

function CitationCard({ c }: { c: Citation }) {
  return (
    <Blockquote p="xs" mt={4} cite={null} styles={{ root: { fontSize: 'var(--mantine-font-size-sm)' } }}>
      <Text size="sm">“{c.quote}”</Text>
      <Group gap={6} mt={4}>
        <Badge size="xs" variant="light" color="gray">
          {TYPE_LABEL[c.type]}
        </Badge>
        {c.url ? (
          <Anchor component={Link} to={c.url} size="xs">
            {c.title}
          </Anchor>
        ) : (
          <Text size="xs">{c.title}</Text>
        )}
        <Text size="xs" c="dimmed">
          {c.projectTitle}
        </Text>
      </Group>
    </Blockquote>
  );
}

function Block({ b }: { b: AnswerBlock }) {
  if (b.type === 'emergingThemes') return <EmergingThemesGraph block={b} />;
  if (b.type === 'heading') {
    return (
      <Title order={(b.level + 2) as 3 | 4 | 5} fz={b.level === 1 ? 'lg' : 'md'}>
        {b.content}
      </Title>
    );
  }
  return (
    <div>
      <Text size="sm">{b.content}</Text>
      {b.citations.map((c, i) => (
        <CitationCard key={`${c.id}-${i}`} c={c} />
      ))}
    </div>
  );
}

/**
 * Ask: a question about the workspace's research, answered as it is written. Only verified quotes
 * from items the person can open ever reach this box (the server checks them before sending).
 */
export function AskBox() {
  const host = useFieldbook();
  const suggested = useGraphQL<{ suggestedQuestions: string[] }>(
    `query($j: String) { suggestedQuestions(jobFunction: $j) }`,
    { j: null },
  );
  const [question, setQuestion] = useState('');
  const [blocks, setBlocks] = useState<AnswerBlock[]>([]);
  const [answer, setAnswer] = useState<AiAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function ask(q: string) {
    if (!q.trim()) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setQuestion(q);
    setBlocks([]);
    setAnswer(null);
    setError(null);
    setBusy(true);
    try {
      await postEvents(
        host,
        '/api/ai/ask/stream',
        { question: q },
        (event, data) => {
          if (event === 'block') setBlocks((bs) => [...bs, data as AnswerBlock]);
          else if (event === 'done') setAnswer(data as AiAnswer);
          else if (event === 'error') setError((data as { message: string }).message);
        },
        controller.signal,
      );
    } catch (err) {
      if (!controller.signal.aborted) setError(err instanceof Error ? err.message : String(err));
    } finally {
      if (abort.current === controller) setBusy(false);
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void ask(question);
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ask-title">
      <Group gap={6} mb="xs">
        <IconSparkles size={18} aria-hidden />
        <Title order={2} fz="md" id="ask-title">
          Ask your research
        </Title>
      </Group>
      <form onSubmit={submit}>
        <Group align="flex-end" gap="xs">
          <TextInput
            style={{ flex: 1 }}
            label="Question"
            placeholder="What do customers say about onboarding?"
            value={question}
            maxLength={500}
            onChange={(e) => setQuestion(e.currentTarget.value)}
          />
          <Button type="submit" loading={busy} disabled={!question.trim()}>
            Ask
          </Button>
        </Group>
      </form>
      {!answer && !busy && blocks.length === 0 && suggested.data && (
        <Group gap={6} mt="xs" role="group" aria-label="Suggested questions">
          {suggested.data.suggestedQuestions.slice(0, 4).map((s) => (
            <Button key={s} size="compact-xs" variant="light" onClick={() => void ask(s)}>
              {s}
            </Button>
          ))}
        </Group>
      )}
      {error && (
        <Alert color="red" mt="sm" title="No answer">
          {error}
        </Alert>
      )}
      {(blocks.length > 0 || busy) && (
        <Stack gap="sm" mt="md" aria-live="polite" aria-busy={busy}>
          {blocks.map((b, i) => (
            <Block key={i} b={b} />
          ))}
          {busy && <Loader size="xs" aria-label="Writing the answer" />}
        </Stack>
      )}
      {answer && (
        <Text size="xs" c="dimmed" mt="sm" data-testid="ask-label">
          {answer.label}
          {answer.droppedQuotes > 0
            ? ` · ${answer.droppedQuotes} quote${answer.droppedQuotes === 1 ? '' : 's'} not found in ${answer.droppedQuotes === 1 ? 'its' : 'their'} source removed`
            : ''}
          {answer.unsupportedClaims > 0
            ? ` · ${answer.unsupportedClaims} statement${answer.unsupportedClaims === 1 ? '' : 's'} with no source found left out`
            : ''}
        </Text>
      )}
    </Paper>
  );
}
