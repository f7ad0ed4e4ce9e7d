import { Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconQuote } from '@tabler/icons-react';
import type { JSONContent } from '@tiptap/react';
import { useMemo } from 'react';
import { Navigate, useParams } from 'react-router';
import type { RichDoc } from '../api.ts';
import { DocumentEditor } from '../editor/DocumentEditor.tsx';
import { DEFAULT_HIGHLIGHT_FILL } from '../editor/highlight-paint.ts';
import { fetchSharedObject, type PublicHighlight, type PublicInsight, type SharedObject } from './shared-object.ts';
import { usePageTitle } from './PublicFrame.tsx';
import { SharedLinkPage } from './SharedLinkPage.tsx';

/** The colour of a highlight at the highlight alpha of 0.2 (002 §9). */
function fillOf(color: string | null): string {
  const m = color ? /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color) : null;
  return m
    ? `rgba(${parseInt(m[1]!, 16)}, ${parseInt(m[2]!, 16)}, ${parseInt(m[3]!, 16)}, 0.2)`
    : DEFAULT_HIGHLIGHT_FILL;
}

function RichText({
  doc,
  label,
  highlights = [],
}: {
  doc: RichDoc | null;
  label: string;
  highlights?: PublicHighlight[];
}) {
  const painted = useMemo(
    () =>
      highlights.map((h) => ({ id: h.id, startOffset: h.startOffset, endOffset: h.endOffset, fill: fillOf(h.color) })),
    [highlights],
  );
  if (!doc) return null;
  return (
    <DocumentEditor
      content={doc as JSONContent}
      editable={false}
      label={label}
      placeholder=""
      highlights={painted}
      linkNotes={false}
    />
  );
}

function Quote({ h }: { h: PublicHighlight }) {
  return (
    <Paper
      component="figure"
      withBorder
      radius="md"
      p="md"
      m={0}
      style={{ borderLeft: `4px solid ${h.color ?? '#fab005'}` }}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconQuote size={18} aria-hidden style={{ flexShrink: 0, color: '#5c6ac4' }} />
        <Box>
          <Text component="blockquote" m={0} size="md" fs="italic">
            {h.text}
          </Text>
          {h.noteTitle && (
            <Text component="figcaption" size="xs" c="dimmed" mt={6}>
              From {h.noteTitle}
            </Text>
          )}
        </Box>
      </Group>
    </Paper>
  );
}

function Evidence({ highlights, title }: { highlights: PublicHighlight[]; title: string }) {
  if (!highlights.length) return null;
  return (
    <Stack gap="sm" mt="xl" component="section" aria-label={title}>
      <Title order={2} fz={18}>
        {title}
      </Title>
      {highlights.map((h) => (
        <Quote key={h.id} h={h} />
      ))}
    </Stack>
  );
}

/** The ids of the highlights a document already shows as citation blocks. */
function citedInText(doc: RichDoc | null | undefined, into = new Set<string>()): Set<string> {
  if (!doc) return into;
  const attrs = doc.attrs as { highlightId?: unknown } | undefined;
  if (doc.type === 'citation' && typeof attrs?.highlightId === 'string') into.add(attrs.highlightId);
  for (const c of doc.content ?? []) citedInText(c, into);
  return into;
}

function InsightBody({ insight, level = 1 }: { insight: PublicInsight; level?: 1 | 2 }) {
  const inText = citedInText(insight.content);
  const more = insight.highlights.filter((h) => !inText.has(h.id));
  return (
    <Box component="article">
      <Title order={level} fz={level === 1 ? 34 : 24} lh={1.2} mb={4}>
        {insight.title || 'Untitled insight'}
      </Title>
      {insight.publishedAt && (
        <Text size="sm" c="dimmed" mb="lg">
          Published {new Date(insight.publishedAt).toLocaleDateString(undefined, { dateStyle: 'long' })}
        </Text>
      )}
      <RichText doc={insight.content} label={`${insight.title || 'Insight'}: content`} />
      <Evidence highlights={more} title={inText.size ? 'More evidence' : 'Evidence'} />
    </Box>
  );
}

function SharedView({ shared, token }: { shared: SharedObject; token: string }) {
  const o = shared.object;
  const name = o.__typename === 'PublicHighlight' ? 'Highlight' : o.title || 'Shared';
  usePageTitle(name);
  switch (o.__typename) {
    // Charts and dashboards have pages of their own, with the chart library (dashboards module).
    case 'PublicProjectChart':
      return <Navigate to={`/p/chart/${token}`} replace />;
    case 'PublicDashboard':
      return <Navigate to={`/p/dashboard/${token}`} replace />;
    case 'PublicInsight':
      return <InsightBody insight={o} />;
    case 'PublicNote':
      return (
        <Box component="article">
          <Title order={1} fz={34} lh={1.2} mb="lg">
            {o.title || 'Untitled note'}
          </Title>
          <RichText doc={o.content} label={`${o.title || 'Note'}: content`} highlights={o.highlights} />
          <Evidence highlights={o.highlights} title="Highlights" />
        </Box>
      );
    case 'PublicHighlight':
      return (
        <Stack gap="md">
          <Title order={1} fz={24}>
            A highlight
          </Title>
          <Quote h={o} />
        </Stack>
      );
    case 'PublicProject':
      return (
        <Stack gap="xl">
          <Box>
            <Title order={1} fz={34} lh={1.2} mb="md">
              {o.title || 'Untitled project'}
            </Title>
            <RichText doc={o.readme} label={`${o.title || 'Project'}: readme`} />
          </Box>
          {o.insights.length > 0 && (
            <Stack gap="xl">
              {o.insights.map((i) => (
                <Paper key={i.id} withBorder radius="md" p="lg">
                  <InsightBody insight={i} level={2} />
                </Paper>
              ))}
            </Stack>
          )}
        </Stack>
      );
    case 'PublicProjectReadme':
      return (
        <Box component="article">
          <Title order={1} fz={34} lh={1.2} mb="md">
            {o.title || 'Untitled project'}
          </Title>
          <RichText doc={o.readme} label={`${o.title || 'Project'}: readme`} />
        </Box>
      );
  }
}

/** `/p/:shareToken` and `/public-object/:shareToken`: what a public link shows (`/p/data/` is the channels module's shared data). */
export function PublicSharePage() {
  const { shareToken = '' } = useParams();
  return (
    <SharedLinkPage shareToken={shareToken} load={fetchSharedObject} width={() => 864}>
      {(shared) => (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 40 }}>
          <SharedView shared={shared} token={shareToken} />
        </Paper>
      )}
    </SharedLinkPage>
  );
}
