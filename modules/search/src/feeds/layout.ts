import { badInput, type RequestContext } from '@fieldbook/core';

/** Search result layouts (000 §2: grid or list); list until a person picks one. */
export const SEARCH_LAYOUTS = ['GRID', 'LIST'] as const;
export type SearchLayout = (typeof SEARCH_LAYOUTS)[number];
const DEFAULT_LAYOUT: SearchLayout = 'LIST';

/** The caller's layout in this workspace; each member keeps their own. */
export async function getSearchLayout(ctx: RequestContext): Promise<SearchLayout> {
  const { viewer, workspace } = ctx.authorize('preferences:manage');
  const row = (await ctx.tx((trx) =>
    trx('search_preferences').where({ workspace_id: workspace.id, user_id: viewer.userId }).first('layout'),
  )) as { layout: SearchLayout } | undefined;
  return row?.layout ?? DEFAULT_LAYOUT;
}

export async function setSearchLayout(ctx: RequestContext, args: { layout?: unknown }): Promise<SearchLayout> {
  const { viewer, workspace } = ctx.authorize('preferences:manage');
  const layout = args.layout;
  if (!(SEARCH_LAYOUTS as readonly unknown[]).includes(layout))
    throw badInput('layout', `layout is one of ${SEARCH_LAYOUTS.join(', ')}.`);
  await ctx.tx((trx) =>
    trx('search_preferences')
      .insert({ workspace_id: workspace.id, user_id: viewer.userId, layout })
      .onConflict(['workspace_id', 'user_id'])
      .merge({ layout, updated_at: trx.fn.now() }),
  );
  return layout as SearchLayout;
}
