import DataLoader from 'dataloader';
import { notFound, type RequestContext } from '@fieldbook/core';
import { readableProjectIds } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { tagView, groupView, type TagGroupRow, type TagGroupView, type TagRow, type TagView } from './rows.ts';

/**
 * Per-request batches, so a list of boards with their groups, tags and highlight counts reads
 * each kind once, whatever the list's length (no N+1).
 */
export interface TagLoaders {
  highlightCount: DataLoader<string, number>;
  groupsOfBoard: DataLoader<string, TagGroupView[]>;
  tagsOfBoard: DataLoader<string, TagView[]>;
  tagsOfGroup: DataLoader<string, TagView[]>;
  tagsOfHighlight: DataLoader<string, TagView[]>;
}

const perRequest = new WeakMap<RequestContext, TagLoaders>();

function grouped<T, K extends keyof T>(rows: readonly T[], key: K, keys: readonly string[]): T[][] {
  const by = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) by.get(String(row[key]))?.push(row);
  return keys.map((k) => by.get(k) ?? []);
}

export function tagLoaders(ctx: RequestContext): TagLoaders {
  const existing = perRequest.get(ctx);
  if (existing) return existing;
  const order = [{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }];
  const loaders: TagLoaders = {
    // A tag counts the highlights the caller could open: out of the trash (and so is their note),
    // in projects they can read. A workspace board's tags are used across projects, restricted
    // ones included, so the project check is what keeps those counts from telling on them.
    highlightCount: new DataLoader(async (tagIds) => {
      const caller = callerOf(ctx, 'tags:read');
      const rows = (await ctx.tx(async (trx) => {
        const projects = await readableProjectIds(trx, caller);
        if (!projects.length) return [];
        return trx('highlight_tags as ht')
          .join('highlights as h', 'h.id', 'ht.highlight_id')
          .leftJoin('notes as n', 'n.id', 'h.note_id')
          .whereIn('ht.tag_id', tagIds as string[])
          .whereIn('h.project_id', projects)
          .whereNull('h.deleted_at')
          .where((w) => w.whereNull('h.note_id').orWhereNull('n.deleted_at'))
          .groupBy('ht.tag_id')
          .select('ht.tag_id', trx.raw('count(*)::int as count'));
      })) as Array<{ tag_id: string; count: number }>;
      const counts = new Map(rows.map((r) => [r.tag_id, r.count]));
      return tagIds.map((id) => counts.get(id) ?? 0);
    }),
    groupsOfBoard: new DataLoader(async (boardIds) => {
      const rows = (await ctx.tx((trx) =>
        trx('tag_groups')
          .whereIn('board_id', boardIds as string[])
          .orderBy(order),
      )) as TagGroupRow[];
      return grouped(rows, 'board_id', boardIds).map((list) => list.map(groupView));
    }),
    tagsOfBoard: new DataLoader(async (boardIds) => {
      const rows = (await ctx.tx((trx) =>
        trx('tags')
          .whereIn('board_id', boardIds as string[])
          .orderBy(order),
      )) as TagRow[];
      return grouped(rows, 'board_id', boardIds).map((list) => list.map(tagView));
    }),
    tagsOfGroup: new DataLoader(async (groupIds) => {
      const rows = (await ctx.tx((trx) =>
        trx('tags')
          .whereIn('group_id', groupIds as string[])
          .orderBy(order),
      )) as TagRow[];
      return grouped(rows, 'group_id', groupIds).map((list) => list.map(tagView));
    }),
    // A list asks for the tags of each of its highlights (one aliased field each): one read for
    // all, each highlight checked as readable as when asked alone (NOT_FOUND for the others).
    tagsOfHighlight: new DataLoader<string, TagView[]>(async (highlightIds) => {
      const caller = callerOf(ctx, 'tags:read');
      return ctx.tx(async (trx) => {
        const projects = new Set(await readableProjectIds(trx, caller));
        const highlights = (await trx('highlights')
          .whereIn('id', highlightIds as string[])
          .where({ workspace_id: caller.workspaceId })
          .whereNull('deleted_at')
          .select('id', 'project_id')) as Array<{ id: string; project_id: string }>;
        const readable = highlights.filter((h) => projects.has(h.project_id)).map((h) => h.id);
        const rows = (await trx('tags as t')
          .join('highlight_tags as ht', 'ht.tag_id', 't.id')
          .whereIn('ht.highlight_id', readable)
          .orderBy([{ column: 'ht.created_at' }, { column: 't.title' }])
          .select('t.*', 'ht.highlight_id')) as Array<TagRow & { highlight_id: string }>;
        const tags = grouped(rows, 'highlight_id', highlightIds);
        const open = new Set(readable);
        return highlightIds.map((id, i) => (open.has(id) ? tags[i]!.map(tagView) : notFound('That highlight')));
      });
    }),
  };
  perRequest.set(ctx, loaders);
  return loaders;
}
