import { Anchor, Badge, Box, Card, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SEARCH_OBJECT_LABELS } from '../../src/filters/index.ts';
import type { SearchHit } from '../api.ts';
import { hitPath } from './hit-path.ts';
import { parseSnippet } from './snippet.ts';

const TYPE_COLOR: Record<string, string> = {
  INSIGHT: 'violet',
  HIGHLIGHT: 'yellow',
  TAG: 'pink',
  NOTE: 'indigo',
  PROJECT: 'teal',
  PERSON: 'cyan',
  PROJECT_CATEGORY: 'gray',
  CHANNEL: 'orange',
  THEME: 'grape',
  CHANNEL_DATAPOINT: 'orange',
};

/** The snippet with its matches marked, as text and <mark> elements (never as HTML). */
export function Snippet({ html, lines }: { html: string; lines: number }) {
  return (
    <Text size="sm" c="dark.4" lineClamp={lines} className="search-snippet">
      {parseSnippet(html).map((part, i) =>
        part.marked ? (
          <mark
            key={i}
            style={{ background: 'var(--mantine-color-yellow-2)', color: 'inherit', borderRadius: 2, padding: '0 1px' }}
          >
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </Text>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function HitCard({ hit, layout }: { hit: SearchHit; layout: 'GRID' | 'LIST' }) {
  const path = hitPath(hit);
  const label = SEARCH_OBJECT_LABELS[hit.type];
  const title = hit.title || (hit.type === 'HIGHLIGHT' ? 'Highlight' : 'Untitled');
  return (
    <Card withBorder radius="md" padding="md" h={layout === 'GRID' ? '100%' : undefined} className="search-hit">
      <Group gap={8} mb={6} wrap="nowrap" justify="space-between">
        <Badge variant="light" color={TYPE_COLOR[hit.type] ?? 'gray'} radius="sm" size="sm">
          {label}
        </Badge>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          Updated {dateFormat.format(new Date(hit.updatedAt))}
        </Text>
      </Group>
      <Box>
        {path ? (
          <Anchor component={Link} to={path} fw={600} c="dark.7" lineClamp={2} className="search-hit-title">
            {title}
          </Anchor>
        ) : (
          <Text fw={600} lineClamp={2}>
            {title}
          </Text>
        )}
      </Box>
      {hit.projectTitle && hit.type !== 'PROJECT' && (
        <Text size="xs" c="dimmed" mt={2} truncate>
          in {hit.projectTitle}
        </Text>
      )}
      {hit.snippet && (
        <Box mt={8}>
          <Snippet html={hit.snippet} lines={layout === 'GRID' ? 4 : 2} />
        </Box>
      )}
    </Card>
  );
}
