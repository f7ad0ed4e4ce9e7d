import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import { withTenant } from '../db/tenancy.ts';
import { badInput, forbidden, notFound } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { uuidSchema } from '../identity/inputs.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import type { WorkspacesDeps } from './deps.ts';
import { findWorkspace, loadMembership } from './directory.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { addMember } from './membership-changes.ts';
import { Workspace } from './models/index.ts';
import { membershipView, workspaceView, type MembershipView, type WorkspaceView } from './views.ts';

/** The exact error of 002 §5 when the domains do not fit the organisation metadata. */
export const TOO_MANY_DOMAINS = 'Too many domains to fit in Auth0 organization metadata. Maximum 5 fields available.';

/** A domain, optionally with a leading @ (002 §5): labels of letters, digits and inner hyphens. */
const DOMAIN = /^@?(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Free mail providers: allowing one would let anyone on the internet join (the denied-domain check). */
const DENIED_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.net',
  'mail.com',
  'yandex.com',
  'zoho.com',
]);

export const isDeniedDomain = (domain: string): boolean => DENIED_DOMAINS.has(domain.replace(/^@/, '').toLowerCase());

/**
 * Packs domains, comma-separated, into metadata fields of at most 250 characters each. Null when
 * they need more than five fields (or one domain alone is longer than a field).
 */
export function packDomainFields(domains: readonly string[]): string[] | null {
  const fields: string[] = [];
  let current = '';
  for (const d of domains) {
    if (d.length > WORKSPACE_LIMITS.domainFieldLength) return null;
    const next = current ? `${current},${d}` : d;
    if (next.length <= WORKSPACE_LIMITS.domainFieldLength) {
      current = next;
    } else {
      fields.push(current);
      current = d;
    }
  }
  if (current) fields.push(current);
  return fields.length <= WORKSPACE_LIMITS.domainFields ? fields : null;
}

/** Trims, lower-cases and drops the leading @; refuses malformed and denied domains by name. */
export function normalizeDomains(input: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of input) {
    const value = raw.trim().toLowerCase();
    if (!DOMAIN.test(value)) throw badInput('domains', `${raw.trim() || 'An empty entry'} is not a valid domain.`);
    const domain = value.replace(/^@/, '');
    if (isDeniedDomain(domain))
      throw badInput('domains', `${domain} is a public email domain: anyone could join with it.`);
    if (!out.includes(domain)) out.push(domain);
  }
  return out;
}

/** Sets the email domains whose people may join without an invite. */
export async function setAllowedDomains(
  deps: WorkspacesDeps,
  ctx: RequestContext,
  args: unknown,
): Promise<WorkspaceView> {
  const { viewer, workspace } = ctx.authorize('domains:manage');
  const { domains: input } = validate(
    z.object({
      domains: z
        .array(z.string().max(1000, 'A domain can be at most 253 characters long.'))
        .max(1000, TOO_MANY_DOMAINS),
    }),
    args,
  );
  const domains = normalizeDomains(input);
  if (!packDomainFields(domains)) throw badInput('domains', TOO_MANY_DOMAINS);
  return ctx.tx(async (trx) => {
    const before = await Workspace.query(trx).findById(workspace.id);
    if (!before) throw notFound('That workspace');
    const updated = await Workspace.query(trx).patchAndFetchById(workspace.id, { allowedDomains: domains });
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'DOMAINS',
      subjectType: 'workspace',
      subjectId: workspace.id,
      metadata: { old: before.allowedDomains, new: domains },
    });
    return workspaceView(trx, deps.config, updated);
  });
}

/** People join by domain as viewers; admins raise their role afterwards. */
export const DOMAIN_JOIN_ROLE = 'VIEWER' as const;

/** Joins a workspace that allows the signed-in person's confirmed email domain. */
export async function joinWorkspaceByDomain(
  deps: WorkspacesDeps,
  ctx: RequestContext,
  args: unknown,
): Promise<MembershipView> {
  const viewer = ctx.requireViewer();
  if (viewer.apiTokenId) throw forbidden('Sign in to join a workspace.');
  const { workspaceId } = validate(z.object({ workspaceId: uuidSchema }), args);
  const user = await deps
    .app('users')
    .where({ id: viewer.userId })
    .first<{ email: string; email_confirmed_at: Date | null } | undefined>('email', 'email_confirmed_at');
  if (!user?.email_confirmed_at) throw forbidden('Confirm your email address before joining a workspace.');
  const domain = user.email.toLowerCase().slice(user.email.lastIndexOf('@') + 1);
  return withTenant(deps.app, { workspaceId, userId: viewer.userId, email: viewer.email }, async (trx) => {
    const workspace = await findWorkspace(trx, workspaceId);
    if (!workspace) throw notFound('That workspace');
    let membership = await loadMembership(trx, workspaceId, viewer.userId);
    if (!membership) {
      if (!workspace.allowedDomains.some((d) => d.replace(/^@/, '') === domain)) {
        throw forbidden('This workspace does not let people with your email domain join. Ask an admin for an invite.');
      }
      await addMember(trx, {
        workspaceId,
        userId: viewer.userId,
        role: DOMAIN_JOIN_ROLE,
        workspaceAdmin: false,
        joinedVia: 'DOMAIN',
        actorUserId: viewer.userId,
        field: 'workspaceId',
        metadata: { domain },
      });
      membership = (await loadMembership(trx, workspaceId, viewer.userId))!;
    }
    return membershipView(await workspaceView(trx, deps.config, workspace), membership);
  });
}
