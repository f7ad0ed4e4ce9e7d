import type { Knex } from 'knex';
import {
  projectAccess,
  type EventBus,
  type JobQueue,
  type PermissionLevel,
  type RequestContext,
} from '@fieldbook/core';
import { callerOf } from './projects/caller.ts';
import { createDocument, documentFor, updateDocument } from './notes/documents.ts';
import { tagsFor } from './tags/access.ts';
import { applyNoteTags } from './tags/note-taggings.ts';
import { createHighlight } from './highlights/highlights.ts';
import { chartFor } from './charts/charts.ts';
import { chartItems, type ChartItem } from './charts/data.ts';
import { projectAllowsPublicLinks } from './sharing/objects.ts';
import type { ShareTypeProvider, ShareTypes } from './sharing/types.ts';
import { sendNotifications, type NotificationToSend } from './notification-emails/send.ts';
import { textsNamingPeople } from './people/named.ts';

/** A project chart's options and figures: what a dashboard shows of it, signed in or by link. */
export interface ProjectChartFigures {
  id: string;
  projectId: string;
  projectTitle: string;
  title: string;
  metric: string;
  groupBy: string;
  type: string;
  items: ChartItem[];
}

/**
 * What other modules may ask of research (automation's built-in actions). Every call runs as the
 * member in `ctx`, under the same rules as that member's own requests.
 */
export interface ResearchServices {
  /** The member's level on a project; null when it does not exist or they cannot see it. */
  projectLevel(ctx: RequestContext, projectId: string): Promise<PermissionLevel | null>;
  /** Throws NOT_FOUND naming the first tag the member cannot read. */
  assertTagsReadable(ctx: RequestContext, tagIds: readonly string[]): Promise<void>;
  createNote(
    ctx: RequestContext,
    draft: { projectId: string; title: string; text: string },
  ): Promise<{ id: string; projectId: string; title: string }>;
  /** Creates an insight (a rich-text document) in a project the member may write to. */
  createInsight(
    ctx: RequestContext,
    draft: { projectId: string; title: string; content: unknown },
  ): Promise<{ id: string; projectId: string; title: string }>;
  /** Tags a note; answers the titles of all its tags. */
  tagNote(ctx: RequestContext, noteId: string, tagIds: readonly string[]): Promise<string[]>;
  /**
   * Highlights a slice of a note the member may edit; `alongside` commits with it (see
   * highlights.ts). Answers the highlight's id and text.
   */
  createHighlight(
    ctx: RequestContext,
    input: { noteId: string; startOffset: number; endOffset: number },
    alongside?: (trx: Knex.Transaction, highlightId: string) => Promise<void>,
  ): Promise<{ id: string; text: string }>;
  /** The note if the member may read it. */
  note(ctx: RequestContext, noteId: string): Promise<{ id: string; projectId: string; title: string } | null>;
  /** Edits a note the member may edit: a new title, and text added at its end or replacing it. */
  editNote(
    ctx: RequestContext,
    noteId: string,
    edit: { title?: string; text?: string; mode: 'append' | 'replace' },
  ): Promise<{ id: string; projectId: string; title: string }>;
  /** The project chart if the member may read it (dashboards collect charts). */
  projectChart(ctx: RequestContext, chartId: string): Promise<{ id: string; projectId: string; title: string } | null>;
  /**
   * The chart's figures if the member may read it; with `forPublicLink`, null too when its
   * project turned public links off (000 §6 public group `none`).
   */
  projectChartFigures(
    ctx: RequestContext,
    chartId: string,
    forPublicLink: boolean,
  ): Promise<ProjectChartFigures | null>;
  /**
   * For each text, whether it names a person of the directory or a member (a word of their name,
   * their email): public links show such a text (a theme's title) some other way.
   */
  textsNamingPeople(ctx: RequestContext, texts: readonly string[]): Promise<boolean[]>;
  /** Adds a share object type of another module to research's public links (see sharing/types.ts). */
  registerShareType(provider: ShareTypeProvider): void;
  /**
   * Writes notifications in the caller's transaction, with the email of kinds emailed at once
   * (each person's choices apply when it is sent).
   */
  sendNotifications(trx: Knex.Transaction, items: readonly NotificationToSend[]): Promise<void>;
}

export function researchServices(events: EventBus, shareTypes: ShareTypes, jobs: JobQueue): ResearchServices {
  return {
    registerShareType: (provider) => shareTypes.register(provider),
    async textsNamingPeople(ctx, texts) {
      const caller = callerOf(ctx, 'projects:read');
      return ctx.tx((trx) => textsNamingPeople(trx, caller.workspaceId, texts));
    },
    sendNotifications: (trx, items) => sendNotifications(trx, jobs, items),
    async projectChartFigures(ctx, chartId, forPublicLink) {
      const caller = callerOf(ctx, 'projects:read');
      try {
        return await ctx.tx(async (trx) => {
          const { chart, project } = await chartFor(trx, caller, chartId, 'read');
          if (forPublicLink && !projectAllowsPublicLinks(project)) return null;
          const items = await chartItems(trx, chart);
          return {
            id: chart.id,
            projectId: project.id,
            projectTitle: project.title,
            title: chart.title,
            metric: chart.metric,
            groupBy: chart.group_by,
            type: chart.chart_type,
            items,
          };
        });
      } catch (err) {
        if (err instanceof Error && 'errorCode' in err && err.errorCode === 'NOT_FOUND') return null;
        throw err;
      }
    },
    async projectLevel(ctx, projectId) {
      const caller = callerOf(ctx, 'projects:read');
      const project = await ctx.tx((trx) =>
        trx('projects')
          .where({ id: projectId, workspace_id: caller.workspaceId })
          .whereNull('deleted_at')
          .first<{ permissions: unknown } | undefined>('permissions'),
      );
      if (!project) return null;
      const { level } = projectAccess(caller.membership, caller.userId, project.permissions);
      return level === 'none' ? null : level;
    },
    async assertTagsReadable(ctx, tagIds) {
      const caller = callerOf(ctx, 'tags:read');
      await ctx.tx((trx) => tagsFor(trx, caller, tagIds, 'read'));
    },
    async createNote(ctx, draft) {
      const note = await createDocument(
        ctx,
        'notes',
        { input: { projectId: draft.projectId, title: draft.title, content: textToDocument(draft.text) } },
        events,
      );
      return { id: note.id, projectId: note.project_id, title: note.title };
    },
    async createInsight(ctx, draft) {
      const insight = await createDocument(
        ctx,
        'insights',
        { input: { projectId: draft.projectId, title: draft.title, content: draft.content } },
        events,
      );
      return { id: insight.id, projectId: insight.project_id, title: insight.title };
    },
    async tagNote(ctx, noteId, tagIds) {
      const caller = callerOf(ctx, 'tags:update');
      const tags = await ctx.tx((trx) =>
        applyNoteTags(trx, events, { ...caller, name: ctx.requireViewer().name }, noteId, tagIds),
      );
      return tags.map((t) => t.title);
    },
    async createHighlight(ctx, input, alongside) {
      const row = await createHighlight(ctx, { input }, alongside);
      return { id: row.id, text: row.text };
    },
    async note(ctx, noteId) {
      const caller = callerOf(ctx, 'notes:read');
      try {
        const row = await ctx.tx((trx) => documentFor(trx, 'notes', caller, noteId, 'read'));
        return { id: row.id, projectId: row.project_id, title: row.title };
      } catch (err) {
        if (err instanceof Error && 'errorCode' in err && err.errorCode === 'NOT_FOUND') return null;
        throw err;
      }
    },
    async editNote(ctx, noteId, edit) {
      const caller = callerOf(ctx, 'notes:update');
      let content: unknown;
      if (edit.text !== undefined) {
        const added = textToDocument(edit.text);
        if (edit.mode === 'replace') content = added;
        else {
          const current = await ctx.tx((trx) => documentFor(trx, 'notes', caller, noteId, 'write'));
          const doc = current.content as { content?: unknown[] } | null;
          content = { type: 'doc', content: [...(Array.isArray(doc?.content) ? doc.content : []), ...added.content] };
        }
      }
      const note = await updateDocument(
        ctx,
        'notes',
        {
          id: noteId,
          input: {
            ...(edit.title !== undefined ? { title: edit.title } : {}),
            ...(content !== undefined ? { content } : {}),
          },
        },
        events,
      );
      return { id: note.id, projectId: note.project_id, title: note.title };
    },
    async projectChart(ctx, chartId) {
      const caller = callerOf(ctx, 'projects:read');
      try {
        const { chart } = await ctx.tx((trx) => chartFor(trx, caller, chartId, 'read'));
        return { id: chart.id, projectId: chart.project_id, title: chart.title };
      } catch (err) {
        if (err instanceof Error && 'errorCode' in err && err.errorCode === 'NOT_FOUND') return null;
        throw err;
      }
    },
  };
}

/** Plain text as a rich-text document: one paragraph per line. */
function textToDocument(text: string) {
  const lines = text.split('\n');
  return {
    type: 'doc',
    content: lines.map((line) =>
      line ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph' },
    ),
  };
}
