import { Badge, Button, Group, Text } from '@mantine/core';
import {
  IconColumns3,
  IconLayoutBoard,
  IconLayoutGrid,
  IconLayoutList,
  IconPresentation,
  IconTable,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useParams } from 'react-router';
import { isNotFound } from '../ui/errors.ts';
import { UUID, useLoad } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, NotFoundPanel, PageFrame, SectionLoader } from '../ui/layout.tsx';
import { BoardLayout } from './BoardLayout.tsx';
import { CardsLayout } from './CardsLayout.tsx';
import { CanvasLayout } from './CanvasLayout.tsx';
import { VIEW, VIEWS, useViewItems, type ProjectViewData, type ViewLayout, type ViewObjectType } from './data.ts';
import { TableLayout } from './TableLayout.tsx';
import { AddViewButton, ViewMenu } from './ViewActions.tsx';
import { ViewToolbar, useSaveView } from './ViewToolbar.tsx';

export { VIEWS };

export interface ProjectViewSummary {
  id: string;
  title: string;
  layout: ViewLayout;
  objectType: ViewObjectType;
}

export const LAYOUT: Record<ViewLayout, { label: string; Icon: ComponentType<{ size?: number }> }> = {
  BOARD: { label: 'Board', Icon: IconColumns3 },
  CANVAS: { label: 'Canvas', Icon: IconLayoutBoard },
  GRID: { label: 'Grid', Icon: IconLayoutGrid },
  LIST: { label: 'List', Icon: IconLayoutList },
  TABLE: { label: 'Table', Icon: IconTable },
};
const PLURAL: Record<ViewObjectType, string> = { HIGHLIGHT: 'highlights', INSIGHT: 'insights', NOTE: 'notes' };

/** The project's views as links, shown above its sections. */
export function ViewLinks({ projectId, canAdd }: { projectId: string; canAdd: boolean }) {
  const views = useLoad<{ projectViews: ProjectViewSummary[] }>(VIEWS, { projectId });
  const list = views.data?.projectViews ?? [];
  if (!list.length && !canAdd) return null;
  return (
    <Group gap="xs" mb="md" component="nav" aria-label="Project views">
      <Text size="sm" c="dimmed">
        Views:
      </Text>
      {list.map((v) => {
        const Icon = LAYOUT[v.layout]?.Icon ?? IconLayoutList;
        return (
          <Button
            key={v.id}
            component={Link}
            to={`/projects/${projectId}/v/${v.id}`}
            size="compact-sm"
            variant="default"
            leftSection={<Icon size={14} aria-hidden />}
          >
            {v.title}
          </Button>
        );
      })}
      {canAdd && <AddViewButton projectId={projectId} />}
    </Group>
  );
}

/**
 * /projects/{projectId}/v/{viewId}: a project view in its layout, with its settings above it.
 * BOARD puts cards in columns by the view's grouping, GRID and LIST show cards, TABLE the view's
 * columns over every row, and CANVAS its items where they were placed.
 */
export function ViewPage() {
  const { projectId = '', viewId = '' } = useParams();
  const valid = UUID.test(projectId) && UUID.test(viewId);
  const view = useLoad<{ projectView: ProjectViewData }>(VIEW, { id: viewId }, { skip: !valid });
  const v = view.data?.projectView ?? null;
  const loaded = useViewItems(v && v.layout !== 'CANVAS' ? v : null);
  const siblings = useLoad<{ projectViews: ProjectViewSummary[] }>(VIEWS, { projectId }, { skip: !valid });
  const save = useSaveView(v ?? ({ id: viewId } as ProjectViewData), () => void view.reload());

  if (!valid || isNotFound(view.error))
    return <NotFoundPanel what="This view" back={{ label: 'Back to the project', to: `/projects/${projectId}` }} />;
  if (view.error && !v)
    return <ErrorNote error={view.error} title="The view could not be loaded" onRetry={() => void view.reload()} />;
  if (!v) return <SectionLoader label="Loading the view…" />;

  const layout = LAYOUT[v.layout];
  const what = PLURAL[v.objectType];
  const filtered = Boolean(
    v.filter &&
      Array.isArray((v.filter as { forms?: unknown[] }).forms) &&
      (v.filter as { forms: unknown[] }).forms.length,
  );
  let body;
  if (v.layout === 'CANVAS') body = <CanvasLayout view={v} onChanged={() => void view.reload()} />;
  else if (loaded.error)
    body = (
      <ErrorNote error={loaded.error} title={`The ${what} could not be loaded`} onRetry={() => void loaded.reload()} />
    );
  else if (!loaded.items) body = <SectionLoader label={`Loading ${what}…`} />;
  else if (!loaded.items.length)
    body = (
      <EmptyState
        icon={<layout.Icon size={24} />}
        title={filtered ? `No ${what} match this view’s filter` : `No ${what} in this project yet`}
      />
    );
  else {
    const items = loaded.items;
    body =
      v.layout === 'BOARD' ? (
        <>
          <BoardLayout
            view={v}
            items={items}
            fields={loaded.fields}
            members={loaded.members}
            onMoved={() => void loaded.reload()}
          />
          {items.length < loaded.total && (
            <Text size="xs" c="gray.7" role="status">
              Loading {what}… {items.length.toLocaleString()} of {loaded.total.toLocaleString()}
            </Text>
          )}
        </>
      ) : v.layout === 'TABLE' ? (
        <TableLayout
          view={v}
          items={items}
          total={loaded.total}
          fields={loaded.fields}
          members={loaded.members}
          save={save}
          patch={loaded.patch}
        />
      ) : (
        <CardsLayout
          view={v}
          items={items}
          total={loaded.total}
          fields={loaded.fields}
          members={loaded.members}
          grid={v.layout === 'GRID'}
        />
      );
  }

  return (
    <PageFrame
      title={v.title}
      width={v.layout === 'BOARD' || v.layout === 'CANVAS' || v.layout === 'TABLE' ? 'max' : 'wide'}
      crumbs={[
        { label: 'Projects', to: '/projects' },
        { label: v.project.title, to: `/projects/${projectId}` },
      ]}
      description={
        <Group gap={6}>
          <Badge variant="light" color="indigo" radius="sm" leftSection={<layout.Icon size={12} aria-hidden />}>
            {layout.label}
          </Badge>
          <span>
            {v.layout === 'CANVAS'
              ? `A canvas of ${what}`
              : `${what[0]!.toUpperCase()}${what.slice(1)} of this project`}
            {v.layout !== 'CANVAS' && loaded.items ? ` · ${loaded.total.toLocaleString()}` : ''}
          </span>
        </Group>
      }
      actions={
        <Group gap="xs">
          <Button
            component={Link}
            to={`/projects/${projectId}/v/${v.id}/present`}
            variant="default"
            size="sm"
            leftSection={<IconPresentation size={16} aria-hidden />}
          >
            Present
          </Button>
          {v.canEdit && (
            <ViewMenu
              view={{ id: v.id, title: v.title, layout: v.layout, projectId }}
              siblings={siblings.data?.projectViews ?? []}
              onChanged={() => void Promise.all([view.reload(), siblings.reload()])}
            />
          )}
        </Group>
      }
    >
      <ViewToolbar
        view={v}
        fields={loaded.fields}
        members={loaded.members}
        items={loaded.items}
        onSaved={() => void view.reload()}
      />
      {body}
    </PageFrame>
  );
}
