import { forbidden } from '../errors/app-error.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import type { Permission } from '../permissions/roles.ts';

export const VIEWERS_CANNOT_SUMMARIZE = 'Viewers cannot generate summaries';

/**
 * The one check before any summary is generated at a person's request (a note's, an insight's, a
 * channel theme's): "Viewers cannot generate summaries" (002 §6). The workspace role decides
 * first, whatever project or channel access the viewer holds, and before any model is called or
 * any stored summary is touched. `permission` is what reading the summarised item needs.
 */
export function authorizeSummary(ctx: RequestContext, permission: Permission): ReturnType<RequestContext['authorize']> {
  const allowed = ctx.authorize(permission);
  if (allowed.membership.effectiveRole === 'VIEWER') throw forbidden(VIEWERS_CANNOT_SUMMARIZE);
  return allowed;
}
