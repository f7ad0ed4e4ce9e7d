import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import { withTenant } from '../db/tenancy.ts';
import { badInput, forbidden } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { emailSchema, personNameSchema, uuidSchema } from '../identity/inputs.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import type { WorkspacesDeps } from './deps.ts';
import { loadMembership } from './directory.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { Workspace, WorkspaceMember } from './models/index.ts';
import { JOB_ROLES, normalizeJobRole, ORG_SIZES } from './profile-options.ts';
import { DEFAULT_REGION, REGION_CODES } from './regions.ts';
import {
  GENERATED_SUBDOMAIN_MAX,
  SUBDOMAIN_MESSAGES,
  subdomainProblem,
  suggestedSubdomainFor,
} from './subdomain/subdomain.ts';
import { workspaceAppUrl } from './urls.ts';
import { membershipView, workspaceView, type MembershipView, type WorkspaceView } from './views.ts';

const common = {
  teamName: z
    .string({ error: 'Enter a name for the workspace.' })
    .trim()
    .min(1, 'Enter a name for the workspace.')
    .max(WORKSPACE_LIMITS.teamName, `A workspace name can be at most ${WORKSPACE_LIMITS.teamName} characters long.`),
  subdomain: z.string().trim().toLowerCase().nullish(),
  region: z.enum(REGION_CODES, { error: `The region is one of ${REGION_CODES.join(', ')}.` }).nullish(),
  name: personNameSchema.nullish(),
  installTemplateId: uuidSchema.nullish(),
  marketingCommsEnabled: z.boolean().nullish(),
  promo: z.string().trim().max(100, 'A promo code can be at most 100 characters long.').nullish(),
  orgSize: z.enum(ORG_SIZES, { error: `The organisation size is one of ${ORG_SIZES.join(', ')}.` }).nullish(),
  jobRole: z
    .string()
    .transform(normalizeJobRole)
    .pipe(z.enum(JOB_ROLES, { error: `The job role is one of ${JOB_ROLES.join(', ')}.` }))
    .nullish(),
};

const ENTER_EMAIL = 'Enter your email address.';
const ENTER_PASSWORD = 'Enter your password.';

/** The create-workspace request of 002 §5: the method says how the creator proved who they are. */
const createWorkspaceSchema = z.discriminatedUnion(
  'method',
  [
    z.object({ ...common, method: z.literal('AUTH0') }),
    z.object({ ...common, method: z.literal('OIDC') }),
    z.object({
      ...common,
      method: z.literal('EMAIL'),
      email: z.string({ error: ENTER_EMAIL }).pipe(emailSchema),
      password: z
        .string({ error: ENTER_PASSWORD })
        .min(1, ENTER_PASSWORD)
        .max(100, 'Your password can be at most 100 characters long.'),
    }),
    z.object({
      ...common,
      method: z.literal('ONE_TIME_CODE'),
      email: z.string({ error: ENTER_EMAIL }).pipe(emailSchema),
    }),
  ],
  { error: 'The method is one of AUTH0, OIDC, EMAIL or ONE_TIME_CODE.' },
);

export interface CreateWorkspaceResult {
  workspace: WorkspaceView;
  membership: MembershipView;
  redirectUrl: string;
  healthCheckUrl: string;
}

const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === '23505';
const TAKEN = 'That subdomain is taken. Please choose another.';

/**
 * Creates a workspace for the signed-in person, who becomes its WorkspaceAdmin (MANAGER with the
 * admin flag). Everything is checked before anything is written.
 */
export async function createWorkspace(
  deps: WorkspacesDeps,
  ctx: RequestContext,
  input: unknown,
): Promise<CreateWorkspaceResult> {
  const viewer = ctx.requireViewer();
  if (viewer.apiTokenId) throw forbidden('API tokens cannot create workspaces. Sign in to create one.');
  const valid = validate(createWorkspaceSchema, input);

  if (valid.method === 'EMAIL' || valid.method === 'ONE_TIME_CODE') {
    if (valid.email !== viewer.email.toLowerCase())
      throw badInput('email', 'Use the email address you signed in with.');
  }
  if (valid.method === 'EMAIL') {
    const user = await deps
      .app('users')
      .where({ id: viewer.userId })
      .first<{ password_hash: string | null } | undefined>('password_hash');
    if (!user?.password_hash)
      throw badInput('password', 'This account has no password. Create the workspace with a one-time code instead.');
    // Checked like a sign-in: limited per address and account, and wrong ones count towards the lock.
    await deps.identity.recheckPassword(ctx, valid.password, 'password');
  }

  let subdomain: string;
  if (valid.subdomain) {
    const problem = subdomainProblem(valid.subdomain);
    if (problem) throw badInput('subdomain', SUBDOMAIN_MESSAGES[problem]);
    if (await Workspace.query(deps.app).findOne({ subdomain: valid.subdomain })) throw badInput('subdomain', TAKEN);
    subdomain = valid.subdomain;
  } else {
    subdomain = (await availableSubdomain(deps.app, valid.teamName)) ?? `team-${randomBytes(4).toString('hex')}`;
  }

  const id = randomUUID();
  try {
    return await withTenant(deps.app, { workspaceId: id, userId: viewer.userId, email: viewer.email }, async (trx) => {
      const workspace = await Workspace.query(trx).insertAndFetch({
        id,
        name: valid.teamName,
        subdomain,
        region: valid.region ?? DEFAULT_REGION,
        orgSize: valid.orgSize ?? null,
        promo: valid.promo || null,
        installTemplateId: valid.installTemplateId ?? null,
        createdBy: viewer.userId,
      });
      await WorkspaceMember.query(trx).insert({
        workspaceId: id,
        userId: viewer.userId,
        role: 'MANAGER',
        workspaceAdmin: true,
        joinedVia: 'CREATE',
      });
      await rememberCreatorProfile(trx, viewer.userId, valid);
      await recordAudit(trx, {
        workspaceId: id,
        actorUserId: viewer.userId,
        kind: 'WORKSPACE',
        subjectType: 'workspace',
        subjectId: id,
        metadata: {
          action: 'created',
          method: valid.method,
          name: workspace.name,
          subdomain,
          region: workspace.region,
        },
      });
      const view = await workspaceView(trx, deps.config, workspace);
      const membership = await loadMembership(trx, id, viewer.userId);
      return {
        workspace: view,
        membership: membershipView(view, membership!),
        redirectUrl: workspaceAppUrl(deps.config, workspace, 'home'),
        healthCheckUrl: new URL('/ping', deps.config.publicUrl).toString(),
      };
    });
  } catch (err) {
    // Another workspace took the subdomain between the check and the insert.
    if (isUniqueViolation(err)) throw badInput('subdomain', TAKEN);
    throw err;
  }
}

/** The creator's name, job role and marketing choice belong to the person, not the workspace. */
async function rememberCreatorProfile(
  trx: Knex.Transaction,
  userId: string,
  valid: { name?: string | null; jobRole?: string | null; marketingCommsEnabled?: boolean | null },
): Promise<void> {
  const preferences: Record<string, unknown> = {};
  if (valid.jobRole) preferences.jobRole = valid.jobRole;
  if (typeof valid.marketingCommsEnabled === 'boolean') preferences.marketingCommsEnabled = valid.marketingCommsEnabled;
  const patch: Record<string, unknown> = {};
  if (valid.name) patch.name = valid.name;
  if (Object.keys(preferences).length)
    patch.preferences = trx.raw('preferences || ?::jsonb', [JSON.stringify(preferences)]);
  if (Object.keys(patch).length)
    await trx('users')
      .where({ id: userId })
      .update({ ...patch, updated_at: trx.fn.now() });
}

/**
 * The generated subdomain for a name (002 §5) that no workspace uses yet: the generated one, else
 * with -2, -3, ... appended (still within 30 characters). Null when the rules refuse the name.
 */
export async function availableSubdomain(db: Knex, name: string): Promise<string | null> {
  const base = suggestedSubdomainFor(name);
  if (!base) return null;
  const candidates = [base];
  for (let n = 2; n <= 20; n++) {
    const suffix = `-${n}`;
    const head = base.slice(0, GENERATED_SUBDOMAIN_MAX - suffix.length).replace(/-+$/, '');
    candidates.push(`${head}${suffix}`);
  }
  const taken = new Set(
    (await Workspace.query(db).whereIn('subdomain', candidates).select('subdomain')).map((w) => w.subdomain),
  );
  return candidates.find((c) => !taken.has(c) && !subdomainProblem(c)) ?? null;
}
