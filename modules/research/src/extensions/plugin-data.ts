import { AppError, projectAccess, type EventBus, type PluginDataPort } from '@fieldbook/core';
import { callerOf } from '../projects/caller.ts';
import { readableProjectIds } from '../projects/access.ts';
import { createDocument, createNotesIn, documentFor } from '../notes/documents.ts';

/**
 * What plugins may do with research content, for the plugin host: every call runs as the member
 * the plugin acts for, through the same rules as that member's own requests.
 */
export const researchPluginData = (events: EventBus): PluginDataPort => ({
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

  async listProjects(ctx) {
    const caller = callerOf(ctx, 'projects:read');
    return ctx.tx(async (trx) => {
      const ids = await readableProjectIds(trx, caller);
      if (!ids.length) return [];
      return trx('projects')
        .whereIn('id', ids)
        .orderBy([{ column: 'rank' }, { column: 'created_at' }])
        .select<Array<{ id: string; title: string }>>('id', 'title');
    });
  },

  async createNote(ctx, draft) {
    const note = await createDocument(
      ctx,
      'notes',
      { input: { projectId: draft.projectId, title: draft.title, content: draft.content } },
      events,
    );
    return { id: note.id, projectId: note.project_id, title: note.title };
  },

  withNotes(ctx, fn) {
    return ctx.tx((trx) =>
      fn(trx, async (drafts) =>
        (await createNotesIn(trx, ctx, drafts, events)).map((note) => ({
          id: note.id,
          projectId: note.project_id,
          title: note.title,
        })),
      ),
    );
  },

  async getNote(ctx, noteId) {
    const caller = callerOf(ctx, 'notes:read');
    try {
      const row = await ctx.tx((trx) => documentFor(trx, 'notes', caller, noteId, 'read'));
      return { id: row.id, projectId: row.project_id, title: row.title, text: row.content_text };
    } catch (err) {
      if (err instanceof AppError && err.errorCode === 'NOT_FOUND') return null;
      throw err;
    }
  },
});
