import DataLoader from 'dataloader';
import type { RequestContext } from '@fieldbook/core';
import {
  fieldView,
  optionView,
  type FieldOptionRow,
  type FieldRow,
  type FieldView,
  type FieldOptionView,
} from './rows.ts';

/** Per-request batches: a list of fields reads its options once (no N+1). */
export interface FieldLoaders {
  optionsOfField: DataLoader<string, FieldOptionView[]>;
  field: DataLoader<string, FieldView | null>;
}

const perRequest = new WeakMap<RequestContext, FieldLoaders>();

export function fieldLoaders(ctx: RequestContext): FieldLoaders {
  const existing = perRequest.get(ctx);
  if (existing) return existing;
  const loaders: FieldLoaders = {
    optionsOfField: new DataLoader(async (fieldIds) => {
      const rows = (await ctx.tx((trx) =>
        trx('field_options')
          .whereIn('field_id', fieldIds as string[])
          .orderBy(['rank', 'created_at', 'id']),
      )) as FieldOptionRow[];
      const by = new Map<string, FieldOptionView[]>(fieldIds.map((id) => [id, []]));
      for (const row of rows) by.get(row.field_id)?.push(optionView(row));
      return fieldIds.map((id) => by.get(id) ?? []);
    }),
    field: new DataLoader(async (ids) => {
      const rows = (await ctx.tx((trx) => trx('fields').whereIn('id', ids as string[]))) as FieldRow[];
      const by = new Map(rows.map((r) => [r.id, fieldView(r)]));
      return ids.map((id) => by.get(id) ?? null);
    }),
  };
  perRequest.set(ctx, loaders);
  return loaders;
}
