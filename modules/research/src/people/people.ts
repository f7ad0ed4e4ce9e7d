import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { encodeCursor } from '../notes/documents.ts';
import type { Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema, sent } from '../projects/inputs.ts';
import {
  decodeIdCursor,
  pageSize,
  personAvatarUrl,
  personCompany,
  personEmail,
  personName,
  personTitle,
  PEOPLE_LIMITS,
} from './inputs.ts';

export interface PersonRow {
  id: string;
  workspace_id: string;
  name: string;
  email: string | null;
  company: string | null;
  title: string | null;
  avatar_url: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface PersonView extends PersonRow {
  caller: Caller;
}

export const personView =
  (caller: Caller) =>
  (row: PersonRow): PersonView => ({ ...row, caller });

/** A live person of the caller's workspace; NOT_FOUND for the trash and other workspaces. */
export async function personFor(trx: Knex.Transaction, caller: Caller, id: string): Promise<PersonRow> {
  const row = (await trx('people').where({ id, workspace_id: caller.workspaceId }).whereNull('deleted_at').first()) as
    | PersonRow
    | undefined;
  if (!row) throw notFound('That person');
  return row;
}

/** Addresses are unique per workspace whatever their case (the index enforces it too). */
async function assertEmailFree(trx: Knex.Transaction, caller: Caller, email: string, exceptId?: string): Promise<void> {
  const q = trx('people')
    .where({ workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .whereRaw('lower(email) = lower(?)', [email]);
  if (exceptId) q.whereNot({ id: exceptId });
  if (await q.first('id'))
    throw badInput('input.email', `Another person in this workspace already has the email address ${email}.`);
}

const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';

/** Two requests racing past the check still meet the unique index; answer them alike. */
async function guardEmail<T>(email: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (email && isUniqueViolation(error))
      throw badInput('input.email', `Another person in this workspace already has the email address ${email}.`);
    throw error;
  }
}

const fields = {
  email: personEmail.nullish(),
  company: personCompany.nullish(),
  title: personTitle.nullish(),
  avatarUrl: personAvatarUrl.nullish(),
};

type PersonInput = {
  name?: string;
  email?: string | null;
  company?: string | null;
  title?: string | null;
  avatarUrl?: string | null;
};

function patchOf(input: PersonInput, raw: object): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (input.name !== undefined) patch.name = input.name;
  for (const [key, column] of [
    ['email', 'email'],
    ['company', 'company'],
    ['title', 'title'],
    ['avatarUrl', 'avatar_url'],
  ] as const) {
    if (sent(raw, key)) patch[column] = input[key] ?? null;
  }
  return patch;
}

/** Contributor and above (002 §6). */
export async function createPerson(ctx: RequestContext, args: unknown): Promise<PersonView> {
  const caller = callerOf(ctx, 'people:create');
  const { input } = validate(z.object({ input: z.object({ name: personName, ...fields }) }), args);
  const raw = (args as { input: object }).input;
  return ctx.tx(async (trx) => {
    if (input.email) await assertEmailFree(trx, caller, input.email);
    const [row] = (await guardEmail(input.email, () =>
      trx('people')
        .insert({
          workspace_id: caller.workspaceId,
          ...patchOf(input, raw),
          created_by: caller.userId,
          updated_by: caller.userId,
        })
        .returning('*'),
    )) as PersonRow[];
    return personView(caller)(row!);
  });
}

/** Contributor and above (002 §6). Leaving a field out keeps it; null or blank clears it. */
export async function updatePerson(ctx: RequestContext, args: unknown): Promise<PersonView> {
  const caller = callerOf(ctx, 'people:update');
  const { id, input } = validate(
    z.object({ id: idSchema(), input: z.object({ name: personName.optional(), ...fields }) }),
    args,
  );
  const raw = (args as { input: object }).input;
  return ctx.tx(async (trx) => {
    await personFor(trx, caller, id);
    if (input.email) await assertEmailFree(trx, caller, input.email, id);
    const [row] = (await guardEmail(input.email, () =>
      trx('people')
        .where({ id })
        .update({ ...patchOf(input, raw), updated_by: caller.userId, updated_at: trx.fn.now() })
        .returning('*'),
    )) as PersonRow[];
    return personView(caller)(row!);
  });
}

/** Managers and above move a person to the trash (002 §6: manage people). */
export async function deletePerson(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'people:manage');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await personFor(trx, caller, id);
    await trx('people').where({ id }).update({ deleted_at: trx.fn.now(), updated_by: caller.userId });
    return true;
  });
}

export async function getPerson(ctx: RequestContext, args: unknown): Promise<PersonView> {
  const caller = callerOf(ctx, 'people:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => personView(caller)(await personFor(trx, caller, id)));
}

const listSchema = z.object({
  search: z
    .string()
    .trim()
    .max(PEOPLE_LIMITS.search, `A search can be at most ${PEOPLE_LIMITS.search} characters long.`)
    .nullish(),
  first: pageSize.nullish(),
  after: z.string().nullish(),
});

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface PersonPage {
  nodes: PersonView[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** The workspace's people by name, a page at a time; `search` matches a part of the name or email. */
export async function listPeople(ctx: RequestContext, args: unknown): Promise<PersonPage> {
  const caller = callerOf(ctx, 'people:read');
  const input = validate(listSchema, args);
  const first = input.first ?? 50;
  const after = decodeIdCursor(input.after);
  return ctx.tx(async (trx) => {
    const q = trx('people')
      .where({ workspace_id: caller.workspaceId })
      .whereNull('deleted_at')
      .orderBy([{ column: 'name' }, { column: 'id' }])
      .limit(first + 1);
    if (input.search) {
      const pattern = likePattern(input.search);
      q.where((w) =>
        w.whereRaw('lower(name) like ?', [pattern]).orWhereRaw("lower(coalesce(email, '')) like ?", [pattern]),
      );
    }
    if (after) q.whereRaw('(name, id) > (select name, id from people where id = ?)', [after]);
    const rows = (await q) as PersonRow[];
    const nodes = rows.slice(0, first).map(personView(caller));
    const hasNextPage = rows.length > first;
    return { nodes, hasNextPage, endCursor: hasNextPage ? encodeCursor(nodes[nodes.length - 1]!.id) : null };
  });
}
