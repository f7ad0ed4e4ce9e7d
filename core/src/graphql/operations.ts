import type { RequestContext } from '../kernel/request-context.ts';

type Args = Record<string, unknown>;

/** A root field that needs only the request and its arguments. */
export type Operation = (ctx: RequestContext, args: Args) => unknown;

/**
 * Query and Mutation resolvers from operations: `{ projects: listProjects }` instead of a
 * `(_parent, args, ctx) => listProjects(ctx, args)` line per field.
 */
export function operations(
  map: Readonly<Record<string, Operation>>,
): Record<string, (parent: unknown, args: Args, ctx: RequestContext) => unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([name, op]) => [
      name,
      (_parent: unknown, args: Args, ctx: RequestContext) => op(ctx, args),
    ]),
  );
}
