import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import { withTenant } from '../db/tenancy.ts';
import { badInput, forbidden, notFound } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { emailSchema, uuidSchema } from '../identity/inputs.ts';
import { sha256Hex } from '../identity/secrets.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { can, canInviteAs } from '../permissions/authorize.ts';
import { PRODUCT_ROLES, type ProductRole } from '../permissions/roles.ts';
import type { WorkspacesDeps } from './deps.ts';
import { findWorkspace, loadMembership } from './directory.ts';
import { acceptInviteLink, inviteMail } from './invite-email.ts';
import { newInviteToken, parseInviteToken } from './invite-token.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { addMember, memberCount, usersLimitMessage } from './membership-changes.ts';
import { Invite, Workspace } from './models/index.ts';
import { membershipView, usersById, workspaceView, type MembershipView, type UserView } from './views.ts';

export interface InviteView {
  id: string;
  email: string;
  role: ProductRole;
  workspaceAdmin: boolean;
  message: string | null;
  invitedBy: UserView | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
}

async function inviteViews(trx: Knex.Transaction, invites: readonly Invite[]): Promise<InviteView[]> {
  const users = await usersById(
    trx,
    invites.flatMap((i) => (i.invitedBy ? [i.invitedBy] : [])),
  );
  return invites.map((i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    workspaceAdmin: i.workspaceAdmin,
    message: i.message,
    invitedBy: i.invitedBy ? (users.get(i.invitedBy) ?? null) : null,
    createdAt: i.createdAt,
    expiresAt: i.expiresAt,
    acceptedAt: i.acceptedAt,
  }));
}

const auditInvite = (trx: Knex.Transaction, actorUserId: string, invite: Invite, metadata: Record<string, unknown>) =>
  recordAudit(trx, {
    workspaceId: invite.workspaceId,
    actorUserId,
    kind: 'INVITE',
    subjectType: 'invite',
    subjectId: invite.id,
    metadata,
  });

const pending = (trx: Knex.Transaction) => Invite.query(trx).whereNull('accepted_at').whereNull('revoked_at');

const inviteMembersSchema = z.object({
  emails: z
    .array(z.string(), { error: 'List the email addresses to invite.' })
    .min(1, 'List at least one email address to invite.')
    .max(
      WORKSPACE_LIMITS.invitesPerRequest,
      `Invite at most ${WORKSPACE_LIMITS.invitesPerRequest} email addresses at once.`,
    ),
  role: z.enum(PRODUCT_ROLES, { error: `The role is one of ${PRODUCT_ROLES.join(', ')}.` }),
  workspaceAdmin: z.boolean().nullish(),
  message: z
    .string()
    .trim()
    .max(
      WORKSPACE_LIMITS.inviteMessage,
      `An invite message can be at most ${WORKSPACE_LIMITS.inviteMessage} characters long.`,
    )
    .nullish(),
});

/**
 * Invites people by email (002 §6): the same or a lower role than the inviter's, unless the inviter
 * manages invites. A newer invite to the same address replaces the older one. Mails go out after
 * the invites are saved, each with its own accept link.
 */
export async function inviteMembers(
  deps: WorkspacesDeps,
  ctx: RequestContext,
  args: { input?: unknown },
): Promise<InviteView[]> {
  const { viewer, workspace, membership } = ctx.authorize('invites:send');
  const valid = validate(inviteMembersSchema, args.input);
  const workspaceAdmin = valid.workspaceAdmin ?? false;
  const emails: string[] = [];
  for (const raw of valid.emails) {
    const parsed = emailSchema.safeParse(raw);
    if (!parsed.success) throw badInput('emails', `${raw.trim() || 'An empty address'} is not a valid email address.`);
    if (!emails.includes(parsed.data)) emails.push(parsed.data);
  }
  if (!canInviteAs(membership, { role: valid.role, workspaceAdmin })) {
    throw forbidden('You can invite people with your own role or a lower one only.');
  }
  const message = valid.message || null;

  const created = await ctx.tx(async (trx) => {
    const members = await trx('workspace_members as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where('m.workspace_id', workspace.id)
      .whereRaw('lower(u.email) = any(?::text[])', [emails])
      .select<Array<{ email: string }>>('u.email');
    if (members.length) throw badInput('emails', `${members[0]!.email} is already a member of this workspace.`);

    const otherPending = await trx.raw<{ rows: Array<{ n: number }> }>(
      `select count(distinct lower(email))::int as n from invites
       where workspace_id = ? and accepted_at is null and revoked_at is null and expires_at > now()
         and not (lower(email) = any(?::text[]))`,
      [workspace.id, emails],
    );
    const seatsWanted = (await memberCount(trx, workspace.id)) + (otherPending.rows[0]?.n ?? 0) + emails.length;
    if (seatsWanted > WORKSPACE_LIMITS.usersPerWorkspace)
      throw badInput('emails', `${usersLimitMessage()} Pending invites count towards the limit.`);

    await pending(trx)
      .where({ workspace_id: workspace.id })
      .whereRaw('lower(email) = any(?::text[])', [emails])
      .patch({ revokedAt: new Date() });
    const expiresAt = new Date(Date.now() + WORKSPACE_LIMITS.inviteValidDays * 86_400_000);
    const made: Array<{ invite: Invite; token: string }> = [];
    for (const email of emails) {
      const { token, secret } = newInviteToken(workspace.id);
      const invite = await Invite.query(trx).insertAndFetch({
        workspaceId: workspace.id,
        email,
        role: valid.role,
        workspaceAdmin,
        message,
        invitedBy: viewer.userId,
        tokenHash: sha256Hex(secret),
        expiresAt,
      });
      await auditInvite(trx, viewer.userId, invite, { action: 'sent', email, role: valid.role, workspaceAdmin });
      made.push({ invite, token });
    }
    return {
      made,
      views: await inviteViews(
        trx,
        made.map((m) => m.invite),
      ),
    };
  });

  for (const { invite, token } of created.made) {
    const mail = inviteMail({
      to: invite.email,
      inviterName: viewer.name || viewer.email,
      workspaceName: workspace.name,
      role: invite.role,
      workspaceAdmin: invite.workspaceAdmin,
      message,
      link: acceptInviteLink(deps.config.publicUrl, token),
      validDays: WORKSPACE_LIMITS.inviteValidDays,
    });
    try {
      await deps.mailer.send(mail);
    } catch (err) {
      // The invite stands; inviting the address again sends a fresh link.
      deps.logger.error({ err, inviteId: invite.id }, 'could not send an invite mail');
    }
  }
  return created.views;
}

/** Invites not yet accepted or revoked, newest first. */
export async function listInvites(ctx: RequestContext): Promise<InviteView[]> {
  const { workspace } = ctx.authorize('invites:send');
  return ctx.tx(async (trx) =>
    inviteViews(trx, await pending(trx).where({ workspace_id: workspace.id }).orderBy('created_at', 'desc')),
  );
}

/** Revokes an open invite: one's own, or anyone's for those who manage invites. */
export async function revokeInvite(ctx: RequestContext, args: unknown): Promise<boolean> {
  const { viewer, workspace, membership } = ctx.authorize('invites:send');
  const { id } = validate(z.object({ id: uuidSchema }), args);
  return ctx.tx(async (trx) => {
    const invite = await pending(trx).findOne({ id, workspace_id: workspace.id });
    if (!invite) throw notFound('That invite');
    if (invite.invitedBy !== viewer.userId && !can(membership, 'invites:manage')) {
      throw forbidden('Only workspace admins can revoke invites sent by someone else.');
    }
    await Invite.query(trx).findById(invite.id).patch({ revokedAt: new Date() });
    await auditInvite(trx, viewer.userId, invite, { action: 'revoked', email: invite.email });
    return true;
  });
}

export interface InvitePreview {
  workspaceId: string;
  workspaceName: string;
  workspaceSubdomain: string;
  email: string;
  invitedBy: string | null;
  role: ProductRole;
  workspaceAdmin: boolean;
  expired: boolean;
  accepted: boolean;
}

const tokenSchema = z.object({
  token: z
    .string({ error: 'This link is missing its token.' })
    .trim()
    .min(1, 'This link is missing its token.')
    .max(300, 'This invite link is not valid.'),
});

/** The invite behind a link token, read in the scope of the workspace the token names. */
async function inviteForToken(
  trx: Knex.Transaction,
  parsed: { workspaceId: string; secret: string },
): Promise<Invite | null> {
  const invite = await Invite.query(trx)
    .findOne({ workspace_id: parsed.workspaceId, token_hash: sha256Hex(parsed.secret) })
    .whereNull('revoked_at');
  return invite ?? null;
}

/** What the accept-invite screen shows; null for an unknown or revoked link. Anyone holding the link may look. */
export async function inviteByToken(deps: WorkspacesDeps, args: unknown): Promise<InvitePreview | null> {
  const { token } = validate(tokenSchema, args);
  const parsed = parseInviteToken(token);
  if (!parsed) return null;
  return withTenant(deps.app, { workspaceId: parsed.workspaceId }, async (trx) => {
    const invite = await inviteForToken(trx, parsed);
    if (!invite) return null;
    const workspace = await Workspace.query(trx).findById(invite.workspaceId);
    if (!workspace) return null;
    const inviter = invite.invitedBy ? (await usersById(trx, [invite.invitedBy])).get(invite.invitedBy) : undefined;
    return {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      workspaceSubdomain: workspace.subdomain,
      email: invite.email,
      invitedBy: inviter?.name ?? null,
      role: invite.role,
      workspaceAdmin: invite.workspaceAdmin,
      expired: invite.expiresAt.getTime() <= Date.now(),
      accepted: invite.acceptedAt !== null,
    };
  });
}

/**
 * Accepts an invite for the signed-in person whose email it was sent to. Accepting twice, or
 * after joining another way, keeps the membership as it is.
 */
export async function acceptInvite(deps: WorkspacesDeps, ctx: RequestContext, args: unknown): Promise<MembershipView> {
  const viewer = ctx.requireViewer();
  if (viewer.apiTokenId) throw forbidden('Sign in to accept an invite.');
  const { token } = validate(tokenSchema, args);
  const parsed = parseInviteToken(token);
  if (!parsed) throw notFound('That invite');
  return withTenant(
    deps.app,
    { workspaceId: parsed.workspaceId, userId: viewer.userId, email: viewer.email },
    async (trx) => {
      const invite = await inviteForToken(trx, parsed);
      const workspace = await findWorkspace(trx, parsed.workspaceId);
      if (!invite || !workspace) throw notFound('That invite');
      if (invite.email.toLowerCase() !== viewer.email.toLowerCase()) {
        throw forbidden(`This invite was sent to ${invite.email}. Sign in with that email address to accept it.`);
      }
      let membership = await loadMembership(trx, workspace.id, viewer.userId);
      if (!membership) {
        if (invite.acceptedAt) throw notFound('That invite');
        if (invite.expiresAt.getTime() <= Date.now())
          throw badInput('token', 'This invite has expired. Ask for a new one.');
        await addMember(trx, {
          workspaceId: workspace.id,
          userId: viewer.userId,
          role: invite.role,
          workspaceAdmin: invite.workspaceAdmin,
          joinedVia: 'INVITE',
          actorUserId: viewer.userId,
          field: 'token',
          metadata: { inviteId: invite.id },
        });
        membership = (await loadMembership(trx, workspace.id, viewer.userId))!;
      }
      if (!invite.acceptedAt) await Invite.query(trx).findById(invite.id).patch({ acceptedAt: new Date() });
      return membershipView(await workspaceView(trx, deps.config, workspace), membership);
    },
  );
}
