import DataLoader from 'dataloader';
import type { RequestContext } from '@fieldbook/core';

/** Names of the authors and mentioned members on a page of comments, read once per request. */
const perRequest = new WeakMap<RequestContext, DataLoader<string, string | null>>();

export function userName(ctx: RequestContext, userId: string): Promise<string | null> {
  let loader = perRequest.get(ctx);
  if (!loader) {
    const l = new DataLoader<string, string | null>(async (ids) => {
      const rows = (await ctx.tx((trx) =>
        trx('users')
          .whereIn('id', ids as string[])
          .select('id', 'name'),
      )) as Array<{ id: string; name: string }>;
      const names = new Map(rows.map((r) => [r.id, r.name]));
      return ids.map((id) => names.get(id) ?? null);
    });
    perRequest.set(ctx, l);
    loader = l;
  }
  return loader.load(userId);
}
