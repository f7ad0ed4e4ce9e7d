import { Anchor, Box, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconX } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Connection } from '../api.ts';
import { UUID, useLoad } from '../ui/hooks.ts';
import { ErrorNote, NotFoundPanel, usePageTitle } from '../ui/layout.tsx';
import { isNotFound } from '../ui/errors.ts';
import { VIEW, useViewItems, type ProjectViewData, type ViewItem } from './data.ts';

interface Slide {
  id: string;
  kind: ViewItem['kind'];
  title: string;
  published?: boolean;
  source?: { title: string; href: string };
  fill?: string | null;
}

const DETAIL = {
  note: `query BrowsePresentNote($id: ID!) { note(id: $id) { id contentText } }`,
  insight: `query BrowsePresentInsight($id: ID!) { insight(id: $id) { id contentText } }`,
} as const;
const TEXT_MAX = 4000;

function SlideBody({ slide }: { slide: Slide }) {
  const detail = useLoad<{ note?: { contentText: string }; insight?: { contentText: string } }>(
    slide.kind === 'highlight' ? DETAIL.note : DETAIL[slide.kind],
    { id: slide.id },
    { skip: slide.kind === 'highlight' },
  );
  if (slide.kind === 'highlight') {
    return (
      <Stack gap="lg">
        <Text
          fz={32}
          lh={1.35}
          fw={500}
          style={{ borderLeft: `6px solid ${slide.fill ?? 'rgba(250, 176, 5, 0.6)'}`, paddingLeft: 24 }}
        >
          “{slide.title}”
        </Text>
        {slide.source && (
          <Text c="gray.4" fz="lg">
            From {slide.source.title}
          </Text>
        )}
      </Stack>
    );
  }
  const text = (detail.data?.note ?? detail.data?.insight)?.contentText ?? '';
  return (
    <Stack gap="lg">
      <Title order={1} fz={44} lh={1.2} c="white">
        {slide.title}
      </Title>
      {detail.loading && !detail.data ? (
        <Loader color="gray" size="sm" aria-label="Loading the slide" />
      ) : (
        <Text fz="xl" lh={1.6} c="gray.3" style={{ whiteSpace: 'pre-wrap' }}>
          {text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}…` : text}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Presentation mode: one item per slide on a dark full screen, moved through with the arrow keys
 * (or Page Up and Page Down, as presentation remotes send) and left with Escape. The current
 * slide is in the address, so a link opens the deck where it was.
 */
function Deck({
  title,
  slides,
  base,
  back,
  currentId,
}: {
  title: string;
  slides: Slide[];
  base: string;
  back: string;
  currentId: string | undefined;
}) {
  const navigate = useNavigate();
  const index = Math.max(0, currentId ? slides.findIndex((s) => s.id === currentId) : 0);
  const slide = slides[index];
  const frame = useRef<HTMLDivElement>(null);
  usePageTitle(`Presenting ${title}`);
  const go = (i: number) => {
    const next = slides[i];
    if (next) navigate(`${base}/${next.id}`, { replace: true });
  };
  useEffect(() => {
    frame.current?.focus();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight' || e.key === 'PageDown' || e.key === ' ') {
        e.preventDefault();
        go(index + 1);
      } else if (e.key === 'ArrowLeft' || e.key === 'PageUp') {
        e.preventDefault();
        go(index - 1);
      } else if (e.key === 'Escape') navigate(back);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  return (
    <Box
      ref={frame}
      tabIndex={-1}
      role="main"
      aria-label={`Presentation: ${title}`}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 300,
        background: '#15171c',
        color: 'white',
        display: 'flex',
        flexDirection: 'column',
        outline: 'none',
      }}
    >
      <Group justify="space-between" px="xl" py="md">
        <Text c="gray.4" size="sm">
          {title}
        </Text>
        <Button
          component={Link}
          to={back}
          variant="subtle"
          color="gray"
          c="gray.3"
          leftSection={<IconX size={16} aria-hidden />}
        >
          Exit presentation
        </Button>
      </Group>
      <Box
        style={{ flex: 1, overflow: 'auto', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        px="xl"
      >
        <Box maw={960} w="100%" aria-live="polite" aria-atomic>
          {slide ? <SlideBody key={slide.id} slide={slide} /> : <Text c="gray.4">Nothing to present yet.</Text>}
        </Box>
      </Box>
      <Group justify="space-between" px="xl" py="md">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          disabled={index <= 0}
          onClick={() => go(index - 1)}
        >
          Previous
        </Button>
        <Text c="gray.4" size="sm" role="status">
          {slides.length ? `${index + 1} of ${slides.length}` : ''}
        </Text>
        <Button
          variant="default"
          rightSection={<IconArrowRight size={16} aria-hidden />}
          disabled={index >= slides.length - 1}
          onClick={() => go(index + 1)}
        >
          Next
        </Button>
      </Group>
    </Box>
  );
}

const slideOf = (it: ViewItem): Slide => ({
  id: it.id,
  kind: it.kind,
  title: it.title,
  published: it.published,
  source: it.source,
  fill: it.fill,
});

/** /projects/{projectId}/v/{viewId}/present[/{itemId}]: the view's items, in its filter and sort. */
export function ViewPresentPage() {
  const { projectId = '', viewId = '', insightId } = useParams();
  const valid = UUID.test(projectId) && UUID.test(viewId);
  const view = useLoad<{ projectView: ProjectViewData }>(VIEW, { id: viewId }, { skip: !valid });
  const v = view.data?.projectView ?? null;
  const rows = useViewItems(v);
  const back = `/projects/${projectId}/v/${viewId}`;
  if (!valid || isNotFound(view.error))
    return <NotFoundPanel what="This view" back={{ label: 'Back to the project', to: `/projects/${projectId}` }} />;
  if (view.error || rows.error)
    return (
      <ErrorNote
        error={view.error ?? rows.error}
        title="The presentation could not be loaded"
        onRetry={() => void view.reload()}
      />
    );
  if (!v || !rows.items) return <Loader aria-label="Loading the presentation" m="xl" />;
  return (
    <Deck title={v.title} slides={rows.items.map(slideOf)} base={`${back}/present`} back={back} currentId={insightId} />
  );
}

const PUBLISHED = `query BrowsePresentInsights($projectId: ID!) {
  project(id: $projectId) { id title }
  insights(projectId: $projectId, first: 200, published: true, orderBy: RANK) { nodes { id title } } }`;

/** /projects/{projectId}/insights/present[/{insightId}]: the project's published insights. */
export function InsightsPresentPage() {
  const { projectId = '', insightId } = useParams();
  const valid = UUID.test(projectId);
  const data = useLoad<{ project: { id: string; title: string }; insights: Connection<{ id: string; title: string }> }>(
    PUBLISHED,
    { projectId },
    { skip: !valid },
  );
  const back = `/projects/${projectId}`;
  if (!valid || isNotFound(data.error))
    return <NotFoundPanel what="This project" back={{ label: 'Back to projects', to: '/projects' }} />;
  if (data.error)
    return (
      <ErrorNote error={data.error} title="The presentation could not be loaded" onRetry={() => void data.reload()} />
    );
  if (!data.data) return <Loader aria-label="Loading the presentation" m="xl" />;
  const slides = data.data.insights.nodes.map(
    (i): Slide => ({ id: i.id, kind: 'insight', title: i.title || 'Untitled insight', published: true }),
  );
  return (
    <>
      <Deck
        title={`${data.data.project.title}: published insights`}
        slides={slides}
        base={`/projects/${projectId}/insights/present`}
        back={back}
        currentId={insightId}
      />
      {!slides.length && (
        <Anchor
          component={Link}
          to={back}
          style={{ position: 'fixed', zIndex: 301, bottom: 80, left: '50%', transform: 'translateX(-50%)' }}
          c="gray.3"
        >
          No published insights yet: back to the project
        </Anchor>
      )}
    </>
  );
}
