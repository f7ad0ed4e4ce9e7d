import type { Knex } from 'knex';
import { badInput, forbidden, notFound, type Membership, type RequestContext } from '@fieldbook/core';
import { searchAccess } from '../engine/access.ts';
import { isUuid, type FilterForm, type SearchResultType } from '../filters/index.ts';
import { assertFilterIdsReadable } from './filter-ids.ts';
import { applyFeedInput, FEED_LIMITS, parseRank, sent, type FeedValues } from './input.ts';

/**
 * Saved feeds (000 §2 /explore): searches kept under a title. A feed is its creator's until they
 * share it; shared feeds are listed for the whole workspace, and each reader sees only the hits
 * their own access allows, since the feed holds the search, never its results. Only the creator
 * changes a feed; a workspace admin may also delete a shared one, so a feed left behind by
 * someone who has gone does not stay on everyone's list.
 */
export interface FeedRow {
  id: string;
  workspace_id: string;
  title: string;
  query: string | null;
  filter: FilterForm | null;
  result_types: SearchResultType[];
  project_ids: string[];
  project_category_ids: string[];
  created_by: string | null;
  shared: boolean;
  rank: number;
  created_at: Date;
  updated_at: Date;
  author_name: string | null;
}

export interface SavedFeedRecord {
  id: string;
  title: string;
  query: string | null;
  filter: FilterForm | null;
  resultTypes: SearchResultType[];
  projectIds: string[];
  projectCategoryIds: string[];
  shared: boolean;
  rank: number;
  createdBy: { id: string; name: string } | null;
  isOwn: boolean;
  canDelete: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Rank gap between neighbours (000 §9). */
const RANK_GAP = 65536;

interface Caller {
  userId: string;
  workspaceId: string;
  isAdmin: boolean;
  membership: Membership;
}

function callerOf(ctx: RequestContext): Caller {
  const { viewer, workspace, membership } = ctx.authorize('projects:read');
  return {
    userId: viewer.userId,
    workspaceId: workspace.id,
    isAdmin: membership.effectiveRole === 'WORKSPACE_ADMIN',
    membership,
  };
}

/**
 * The projects and folders a feed is scoped to, and every object its filter names, must be ones
 * the caller can read in this workspace.
 * Ids are checked when they are sent, so a feed whose project was later restricted can still be
 * renamed. Nothing would leak through a foreign id (searches apply access), but none is stored.
 */
async function assertScopeReadable(
  trx: Knex.Transaction,
  caller: Caller,
  raw: Record<string, unknown>,
  values: FeedValues,
): Promise<void> {
  const access = await searchAccess(trx, caller.workspaceId, caller.userId, caller.membership);
  if (sent(raw, 'filter')) await assertFilterIdsReadable(trx, caller.workspaceId, access, values.filter);
  if (sent(raw, 'projectIds') && values.projectIds.length > 0) {
    const found = (await trx('projects')
      .where({ workspace_id: caller.workspaceId })
      .whereNull('deleted_at')
      .whereIn('id', values.projectIds)
      .pluck('id')) as string[];
    const readable = new Set(found.filter((id) => access.allProjects || access.projectIds.includes(id)));
    if (!values.projectIds.every((id) => readable.has(id)))
      throw badInput('input.projectIds', 'projectIds must name projects of this workspace that you can read.');
  }
  if (sent(raw, 'projectCategoryIds') && values.projectCategoryIds.length > 0) {
    const found = (await trx('project_categories')
      .where({ workspace_id: caller.workspaceId })
      .whereNull('deleted_at')
      .whereIn('id', values.projectCategoryIds)
      .pluck('id')) as string[];
    if (found.length !== values.projectCategoryIds.length)
      throw badInput('input.projectCategoryIds', 'projectCategoryIds must name folders of this workspace.');
  }
}

function toRecord(caller: Caller, row: FeedRow): SavedFeedRecord {
  const isOwn = row.created_by === caller.userId;
  return {
    id: row.id,
    title: row.title,
    query: row.query,
    filter: row.filter,
    resultTypes: row.result_types,
    projectIds: row.project_ids,
    projectCategoryIds: row.project_category_ids,
    shared: row.shared,
    rank: row.rank,
    createdBy: row.created_by ? { id: row.created_by, name: row.author_name ?? '' } : null,
    isOwn,
    canDelete: isOwn || (row.shared && caller.isAdmin),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The feeds the caller may read: their own and the shared ones (row-level security agrees). */
function visible(trx: Knex.Transaction, caller: Caller) {
  return trx('saved_feeds as f')
    .leftJoin('users as u', 'u.id', 'f.created_by')
    .where('f.workspace_id', caller.workspaceId)
    .andWhere((q) => q.where('f.shared', true).orWhere('f.created_by', caller.userId))
    .select('f.*', 'u.name as author_name');
}

async function readable(trx: Knex.Transaction, caller: Caller, id: unknown): Promise<FeedRow> {
  if (typeof id !== 'string' || !isUuid(id)) throw badInput('id', 'id must be a valid id.');
  const row = (await visible(trx, caller).andWhere('f.id', id.toLowerCase()).first()) as FeedRow | undefined;
  if (!row) throw notFound('That saved feed');
  return row;
}

const columns = (values: FeedValues) => ({
  title: values.title,
  query: values.query,
  filter: values.filter === null ? null : JSON.stringify(values.filter),
  result_types: values.resultTypes,
  project_ids: values.projectIds,
  project_category_ids: values.projectCategoryIds,
  shared: values.shared,
});

const valuesOf = (row: FeedRow): FeedValues => ({
  title: row.title,
  query: row.query,
  filter: row.filter,
  resultTypes: row.result_types,
  projectIds: row.project_ids,
  projectCategoryIds: row.project_category_ids,
  shared: row.shared,
});

const inputOf = (args: unknown): Record<string, unknown> => {
  const input = (args as { input?: unknown } | null)?.input;
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
};

export async function listFeeds(ctx: RequestContext): Promise<SavedFeedRecord[]> {
  const caller = callerOf(ctx);
  return ctx.tx(async (trx) => {
    // Own feeds first in the caller's order, then the ones others shared, in theirs.
    const rows = (await visible(trx, caller)
      .orderByRaw('(f.created_by = ?) desc nulls last', [caller.userId])
      .orderBy([{ column: 'f.rank' }, { column: 'f.created_at' }, { column: 'f.id' }])) as FeedRow[];
    return rows.map((row) => toRecord(caller, row));
  });
}

export async function getFeed(ctx: RequestContext, args: { id?: unknown }): Promise<SavedFeedRecord> {
  const caller = callerOf(ctx);
  return ctx.tx(async (trx) => toRecord(caller, await readable(trx, caller, args.id)));
}

export async function createFeed(ctx: RequestContext, args: unknown): Promise<SavedFeedRecord> {
  const caller = callerOf(ctx);
  // The title is required: checked even when a client leaves it out.
  const raw: Record<string, unknown> = { title: undefined, ...inputOf(args) };
  const values = applyFeedInput(
    { title: '', query: null, filter: null, resultTypes: [], projectIds: [], projectCategoryIds: [], shared: false },
    raw,
  );
  const rank = sent(raw, 'rank') && raw.rank !== null ? parseRank(raw.rank) : null;
  return ctx.tx(async (trx) => {
    await assertScopeReadable(trx, caller, raw, values);
    const own = trx('saved_feeds').where({ workspace_id: caller.workspaceId, created_by: caller.userId });
    const stats = (
      await own.clone().count<Array<{ count: string }>>('* as count').max('rank as max')
    )[0] as unknown as { count: string; max: number | null };
    if (Number(stats.count) >= FEED_LIMITS.perPerson) {
      throw badInput(
        'input',
        `You can save at most ${FEED_LIMITS.perPerson} feeds in a workspace. Delete one you no longer use first.`,
      );
    }
    const [inserted] = (await trx('saved_feeds')
      .insert({
        workspace_id: caller.workspaceId,
        created_by: caller.userId,
        rank: rank ?? (stats.max ?? 0) + RANK_GAP,
        ...columns(values),
      })
      .returning('id')) as Array<{ id: string }>;
    return toRecord(caller, await readable(trx, caller, inserted!.id));
  });
}

export async function updateFeed(ctx: RequestContext, args: unknown): Promise<SavedFeedRecord> {
  const caller = callerOf(ctx);
  const raw = inputOf(args);
  return ctx.tx(async (trx) => {
    const row = await readable(trx, caller, (args as { id?: unknown }).id);
    if (row.created_by !== caller.userId) throw forbidden('Only the person who saved this feed can change it.');
    const values = applyFeedInput(valuesOf(row), raw);
    await assertScopeReadable(trx, caller, raw, values);
    const patch: Record<string, unknown> = { ...columns(values), updated_at: trx.fn.now() };
    if (sent(raw, 'rank') && raw.rank !== null) patch.rank = parseRank(raw.rank);
    await trx('saved_feeds').where({ id: row.id, workspace_id: caller.workspaceId }).update(patch);
    return toRecord(caller, await readable(trx, caller, row.id));
  });
}

export async function deleteFeed(ctx: RequestContext, args: { id?: unknown }): Promise<boolean> {
  const caller = callerOf(ctx);
  return ctx.tx(async (trx) => {
    const row = await readable(trx, caller, args.id);
    if (!toRecord(caller, row).canDelete) {
      throw forbidden(
        row.shared
          ? 'Only the person who saved this feed, or a workspace admin, can delete it.'
          : 'Only the person who saved this feed can delete it.',
      );
    }
    await trx('saved_feeds').where({ id: row.id, workspace_id: caller.workspaceId }).delete();
    return true;
  });
}
