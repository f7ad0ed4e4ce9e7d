import type { Knex } from 'knex';
import { notFound, type PermissionLevel } from '@fieldbook/core';
import { rethrowAs } from '../tags/access.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import type { FieldRow } from './rows.ts';

/** A field of the workspace whose project (if any) the caller reaches at `needed`; else NOT_FOUND. */
export async function fieldFor(
  trx: Knex.Transaction,
  caller: Caller,
  fieldId: string,
  needed: PermissionLevel,
  opts: { lock?: boolean } = {},
): Promise<FieldRow> {
  const q = trx('fields').where({ id: fieldId, workspace_id: caller.workspaceId });
  // Option changes and select values lock their field, so two of them never add the same option.
  if (opts.lock) q.forUpdate();
  const field = (await q.first()) as FieldRow | undefined;
  if (!field) throw notFound('That field');
  if (field.project_id) {
    await projectFor(trx, caller, field.project_id, needed).catch(rethrowAs('That field'));
  }
  return field;
}
