import type { Knex } from 'knex';
import { deadShareLink, openShareLink, type RequestContext } from '@fieldbook/core';
import type { ProjectRow } from '../projects/access.ts';
import type { ChartRow } from '../charts/charts.ts';
import { chartItems, type ChartItem } from '../charts/data.ts';
import type { ShareRow } from './share-row.ts';
import { projectAllowsPublicLinks, SHARE_OBJECT_TYPES, type ShareObjectType } from './objects.ts';
import { showsSection, type SharePayload } from './payload.ts';
import type { ShareTypes } from './types.ts';

/**
 * What an anonymous viewer of a link sees: the one shared object and what belongs to it (a note's
 * highlights, a project's published insights), and nothing else of the workspace. Every other
 * resolver goes through `ctx.authorize`, which refuses a request that has no signed-in person.
 */
export interface PublicHighlightView {
  kind: 'PublicHighlight';
  id: string;
  text: string;
  startOffset: number;
  endOffset: number;
  color: string | null;
  noteTitle: string | null;
}

export interface PublicInsightView {
  kind: 'PublicInsight';
  id: string;
  title: string;
  content: unknown;
  publishedAt: Date | null;
  highlights: PublicHighlightView[];
}

export interface PublicNoteView {
  kind: 'PublicNote';
  id: string;
  title: string;
  content: unknown;
  contentText: string;
  highlights: PublicHighlightView[];
}

export interface PublicProjectView {
  kind: 'PublicProject';
  id: string;
  title: string;
  readme: unknown;
  insights: PublicInsightView[];
}

export interface PublicProjectReadmeView {
  kind: 'PublicProjectReadme';
  id: string;
  title: string;
  readme: unknown;
}

/** A shared chart: its options and figures (tag and group names with their counts), no highlight text. */
export interface PublicProjectChartView {
  kind: 'PublicProjectChart';
  id: string;
  title: string;
  metric: string;
  groupBy: string;
  type: string;
  items: ChartItem[];
}

export type PublicView =
  | PublicHighlightView
  | PublicInsightView
  | PublicNoteView
  | PublicProjectView
  | PublicProjectReadmeView
  | PublicProjectChartView;

export interface SharedObjectView {
  objectType: string;
  payload: SharePayload;
  sharedAt: Date;
  /** Research's public views, or another module's (its `kind` names its GraphQL type). */
  object: PublicView | { kind: string };
}

/**
 * The object behind the request's share token, read on every request in its workspace while the
 * link is live (`openShareLink`): revoking it or turning public links off takes effect at once.
 */
export async function sharedObject(app: Knex, ctx: RequestContext, types: ShareTypes): Promise<SharedObjectView> {
  const found = await openShareLink<ShareRow, { share: ShareRow; object: PublicView | null }>(
    app,
    ctx,
    [...SHARE_OBJECT_TYPES, ...types.types()],
    async (trx, share) => {
      if (types.get(share.object_type)) return { share, object: null };
      const object = await publicObject(trx, share);
      return object ? { share, object } : null;
    },
  );
  const { share } = found;
  // Another module's type reads its object itself, once the link is known to be live.
  const provider = types.get(share.object_type);
  const object = provider ? await provider.publicObject(share) : found.object;
  if (!object) throw deadShareLink();
  return { objectType: share.object_type, payload: share.payload, sharedAt: share.created_at, object };
}

/** The project of a shared object, if it is out of the trash and lets its objects be shared. */
async function openProject(trx: Knex.Transaction, workspaceId: string, projectId: string): Promise<ProjectRow | null> {
  const project = (await trx('projects')
    .where({ id: projectId, workspace_id: workspaceId })
    .whereNull('deleted_at')
    .first()) as ProjectRow | undefined;
  return project && projectAllowsPublicLinks(project) ? project : null;
}

interface DocumentRow {
  id: string;
  project_id: string;
  title: string;
  content: unknown;
  content_text: string;
  published_at?: Date | null;
}

async function liveDocument(
  trx: Knex.Transaction,
  table: 'notes' | 'insights',
  share: ShareRow,
): Promise<DocumentRow | null> {
  const row = (await trx(table)
    .where({ id: share.object_id, workspace_id: share.workspace_id })
    .whereNull('deleted_at')
    .first()) as DocumentRow | undefined;
  return row ?? null;
}

interface HighlightRow {
  id: string;
  project_id: string;
  note_id: string | null;
  insight_id: string | null;
  text: string;
  start_offset: number;
  end_offset: number;
  color: string | null;
  note_title: string | null;
}

/**
 * Highlights out of the trash (their notes too) in one project. An insight may cite highlights of
 * other projects; those stay out, since a link to one object must not carry the content of
 * projects it does not belong to past their own permissions.
 */
function projectHighlights(trx: Knex.Transaction, workspaceId: string, projectId: string) {
  return trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .where({ 'h.workspace_id': workspaceId, 'h.project_id': projectId })
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .select(
      'h.id',
      'h.project_id',
      'h.note_id',
      'h.insight_id',
      'h.text',
      'h.start_offset',
      'h.end_offset',
      'h.color',
      'n.title as note_title',
    );
}

const highlightView = (h: HighlightRow): PublicHighlightView => ({
  kind: 'PublicHighlight',
  id: h.id,
  text: h.text,
  startOffset: h.start_offset,
  endOffset: h.end_offset,
  color: h.color,
  noteTitle: h.note_title,
});

/** The highlights each insight cites (`highlights.insight_id`), in one query for all of them. */
async function citedHighlights(
  trx: Knex.Transaction,
  workspaceId: string,
  projectId: string,
  insightIds: string[],
): Promise<Map<string, PublicHighlightView[]>> {
  const byInsight = new Map<string, PublicHighlightView[]>(insightIds.map((id) => [id, []]));
  if (!insightIds.length) return byInsight;
  const rows = (await projectHighlights(trx, workspaceId, projectId)
    .whereIn('h.insight_id', insightIds)
    .orderBy([{ column: 'h.created_at' }, { column: 'h.id' }])) as HighlightRow[];
  for (const row of rows) byInsight.get(row.insight_id!)?.push(highlightView(row));
  return byInsight;
}

const insightView = (row: DocumentRow, highlights: PublicHighlightView[]): PublicInsightView => ({
  kind: 'PublicInsight',
  id: row.id,
  title: row.title,
  content: row.content ?? null,
  publishedAt: row.published_at ?? null,
  highlights,
});

/** Whether the project shows a section of its own (002 §6 enabled sections; unset means all). */
const projectShows = (project: ProjectRow, section: string): boolean =>
  !project.enabled_sections || project.enabled_sections.includes(section);

/** The public view of the share's object, or null when the object or its project is gone. */
async function publicObject(trx: Knex.Transaction, share: ShareRow): Promise<PublicView | null> {
  const ws = share.workspace_id;
  const payload = share.payload ?? {};
  switch (share.object_type as ShareObjectType) {
    case 'insight': {
      const row = await liveDocument(trx, 'insights', share);
      if (!row || !(await openProject(trx, ws, row.project_id))) return null;
      const cited = showsSection(payload, 'HIGHLIGHTS')
        ? await citedHighlights(trx, ws, row.project_id, [row.id])
        : new Map();
      return insightView(row, cited.get(row.id) ?? []);
    }
    case 'note': {
      const row = await liveDocument(trx, 'notes', share);
      if (!row || !(await openProject(trx, ws, row.project_id))) return null;
      const highlights = showsSection(payload, 'HIGHLIGHTS')
        ? ((await projectHighlights(trx, ws, row.project_id)
            .where('h.note_id', row.id)
            .orderBy([{ column: 'h.start_offset' }, { column: 'h.id' }])) as HighlightRow[])
        : [];
      return {
        kind: 'PublicNote',
        id: row.id,
        title: row.title,
        content: row.content ?? null,
        contentText: row.content_text,
        highlights: highlights.map(highlightView),
      };
    }
    case 'noteHighlight': {
      const row = (await trx('highlights').where({ id: share.object_id, workspace_id: ws }).first('project_id')) as
        | { project_id: string }
        | undefined;
      if (!row || !(await openProject(trx, ws, row.project_id))) return null;
      const highlight = (await projectHighlights(trx, ws, row.project_id).where('h.id', share.object_id).first()) as
        | HighlightRow
        | undefined;
      return highlight ? highlightView(highlight) : null;
    }
    case 'project': {
      const project = await openProject(trx, ws, share.object_id);
      if (!project) return null;
      const readme =
        projectShows(project, 'README') && showsSection(payload, 'README') ? (project.readme ?? null) : null;
      let insights: PublicInsightView[] = [];
      if (projectShows(project, 'INSIGHTS') && showsSection(payload, 'INSIGHTS')) {
        const rows = (await trx('insights')
          .where({ workspace_id: ws, project_id: project.id, archived: false })
          .whereNull('deleted_at')
          .whereNotNull('published_at')
          .orderBy([
            { column: 'published_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .select('id', 'project_id', 'title', 'content', 'content_text', 'published_at')) as DocumentRow[];
        const cited = showsSection(payload, 'HIGHLIGHTS')
          ? await citedHighlights(
              trx,
              ws,
              project.id,
              rows.map((r) => r.id),
            )
          : new Map<string, PublicHighlightView[]>();
        insights = rows.map((r) => insightView(r, cited.get(r.id) ?? []));
      }
      return { kind: 'PublicProject', id: project.id, title: project.title, readme, insights };
    }
    case 'projectReadme': {
      const project = await openProject(trx, ws, share.object_id);
      return project
        ? { kind: 'PublicProjectReadme', id: project.id, title: project.title, readme: project.readme ?? null }
        : null;
    }
    case 'projectChart': {
      const chart = (await trx('project_charts').where({ id: share.object_id, workspace_id: ws }).first()) as
        | ChartRow
        | undefined;
      if (!chart || !(await openProject(trx, ws, chart.project_id))) return null;
      return {
        kind: 'PublicProjectChart',
        id: chart.id,
        title: chart.title,
        metric: chart.metric,
        groupBy: chart.group_by,
        type: chart.chart_type,
        items: await chartItems(trx, chart),
      };
    }
  }
}
